import { NextResponse, type NextRequest } from 'next/server';

/**
 * Under `next dev`, where Next serves /v1 (app/v1/[[...route]]): a path with a broken percent-escape
 * (/v1/users/%zz) makes Next's own parameter decoding throw before the route runs; answer it as the API
 * app does (lib/api/middleware/routing.ts), which answers it itself wherever it runs without Next.
 */
export function proxy(request: NextRequest) {
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

/** Only paths with a `%` in them (the matcher sees the raw path): a proxy run costs about as much as a cheap request. */
export const config = { matcher: '/v1/:path(.*%.*)' };
