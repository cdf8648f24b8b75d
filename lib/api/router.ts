import 'server-only';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiEnv } from './env';
import { invalidRequest } from './respond';

/** An area's operations; a schema's refusal is the 400 envelope naming each field at fault. */
export function router() {
  return new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidRequest(result.error);
    },
  });
}
