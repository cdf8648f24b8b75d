import 'server-only';
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { OPERATOR_SCOPE, type ApiEnv } from '../env';
import { answerWithError } from '../respond';
import { SECURITY_HEADERS } from '../security-headers';
import { noteDatabaseAnswered } from '@/lib/server/db/availability';
import { log } from '@/lib/server/logger';
import { parseTraceparent } from '@/lib/server/trace-context';

/** The path as the client sent it (percent-escapes kept), from an absolute URL. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return url.slice(start, query === -1 ? undefined : query);
}

/**
 * Around every /v1 request: its id (X-Request-Id on every answer, quoted in 500s), a logger bound to it for
 * the handlers (c.var.log), the site's security headers, and one log line (never the Authorization header
 * or a body; the trace id of a W3C traceparent when the request carries a valid one).
 */
export const requestContext: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const startedAt = performance.now();
  const requestId = randomUUID();
  // Only the trace id of a valid traceparent is logged: it ties the dashboard's calls to the page load that made them.
  const trace = parseTraceparent(c.req.header('traceparent'));
  c.set('requestId', requestId);
  const requestLog = log.child({ request_id: requestId });
  c.set('log', requestLog);
  try {
    await next();
  } catch (error) {
    // Hono hands only Error instances to onError; anything else thrown ends here.
    c.res = answerWithError(c, error);
  }
  const headers = c.res.headers;
  for (const { key, value } of SECURITY_HEADERS) if (!headers.has(key)) headers.set(key, value);
  headers.set('x-request-id', requestId);
  const scopeId = c.var.scopeId;
  // The database's outages are logged once where they start and end (db/availability.ts); their 503s are warnings.
  if (c.res.status < 500) noteDatabaseAnswered();
  requestLog[c.res.status === 503 ? 'warn' : c.res.status >= 500 ? 'error' : 'info']({
    msg: 'request',
    client_id: scopeId === OPERATOR_SCOPE ? 'operator' : (scopeId ?? null),
    method: c.req.method,
    route: pathOf(c.req.url),
    status: c.res.status,
    duration_ms: Math.round(performance.now() - startedAt),
    ...(trace ? { trace_id: trace.traceId } : {}),
  });
};
