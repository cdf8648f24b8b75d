import { handle } from 'hono/vercel';
import { app } from '@/lib/api/app';

/**
 * Every /v1 request, whatever its method, goes to the API app (lib/api): what `next dev` serves. The
 * production server hands /v1 to the same app without Next (scripts/serve.ts).
 */
const toApi = handle(app);

export { toApi as GET, toApi as POST, toApi as PUT, toApi as PATCH, toApi as DELETE, toApi as HEAD, toApi as OPTIONS };
