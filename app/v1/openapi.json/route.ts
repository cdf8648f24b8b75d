import { openApiDocument } from '@/lib/contracts/openapi';

// The document depends only on code, so it is built once at build time.
export const dynamic = 'force-static';

export function GET() {
  return Response.json(openApiDocument());
}
