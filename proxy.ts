import { NextResponse, type NextRequest } from 'next/server';
import { PAGE_PATH_HEADER } from '@/lib/contracts/redirect-target';

/**
 * Under `next dev`, where Next serves /v1 (app/v1/[[...route]]): a path with a broken percent-escape
 * (/v1/users/%zz) makes Next's own parameter decoding throw before the route runs; answer it as the API
 * app does (lib/api/middleware/routing.ts), which answers it itself wherever it runs without Next.
 */
export function proxy(request: NextRequest) {
  if (!request.nextUrl.pathname.startsWith('/v1')) return withPagePath(request);
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return NextResponse.json(
      {
        status: false,
        message: 'The request path is not valid percent-encoding.',
        code: 'VALIDATION_ERROR',
        errors: [{ field: '(path)', message: 'invalid percent-encoding' }],
      },
      { status: 400 },
    );
  }
  return NextResponse.next();
}

/**
 * A dashboard page tells the server components which page was asked for: when the session has ended, the sign-in
 * page brings the person back to it (lib/server/dashboard/actor.ts requireActor). Layouts are not given the path.
 */
function withPagePath(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(PAGE_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

/**
 * /v1 only for paths with a `%` in them (the matcher sees the raw path): a proxy run costs about as much as a cheap
 * request. The dashboard's signed-in pages, for their path.
 */
export const config = {
  matcher: [
    '/v1/:path(.*%.*)',
    '/dashboard',
    '/transactions/:path*',
    '/disputes/:path*',
    '/wallet',
    '/wallet/:path*',
    '/admin/:path*',
    '/operator/:path*',
    '/dispute-team/:path*',
  ],
};
