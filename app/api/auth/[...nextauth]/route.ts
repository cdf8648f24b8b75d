import NextAuth from 'next-auth';
import { authOptions } from '@/lib/server/auth';

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built on the first request (see authOptions), so the build never makes a secret.
function handler(request: Request, context: Context) {
  return NextAuth(request as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
