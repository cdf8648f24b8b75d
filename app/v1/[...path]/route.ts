/** Any /v1 path no operation serves: the API's own 404 envelope, not the site's HTML page. */
function unknownRoute(request: Request): Response {
  const { pathname } = new URL(request.url);
  return Response.json(
    { status: false, message: `There is no operation ${request.method} ${pathname}: see /docs for the API reference.`, code: 'NOT_FOUND' },
    { status: 404 },
  );
}

export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
