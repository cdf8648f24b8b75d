import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { authOptions } from '@/lib/server/auth';
import { AppError } from '@/lib/server/app-error';
import { readBodyBytes } from '@/lib/server/http/body';

type Context = { params: Promise<{ nextauth: string[] }> };

/** A sign-in or sign-out form is a few hundred bytes; next-auth itself would read any body whole. */
const AUTH_BODY_LIMIT = 16 * 1024;

/** The body, read with a limit whatever its declared length (scripts/serve.ts refuses a declared excess earlier). */
async function limited(request: NextRequest): Promise<NextRequest | Response> {
  if (request.method !== 'POST') return request;
  try {
    const body = await readBodyBytes(request, AUTH_BODY_LIMIT);
    return new NextRequest(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'PAYLOAD_TOO_LARGE') throw error;
    return Response.json({ status: false, message: 'Sign-in requests are limited to 16 KB.', code: error.code }, { status: 413 });
  }
}

// Options are built on the first request (see authOptions), so the build never makes a secret.
async function handler(request: NextRequest, context: Context) {
  const bounded = await limited(request);
  if (bounded instanceof Response) return bounded;
  return NextAuth(bounded as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
