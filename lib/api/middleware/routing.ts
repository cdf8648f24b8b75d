import 'server-only';
import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from '../env';
import { json } from '../respond';
import { pathOf } from './request-context';

/** The methods a path is served with: what `Allow` lists (HEAD with GET, and OPTIONS always). */
type PathMethods = { segments: string[]; methods: Set<string> };

/** The methods an unknown /v1 path answers with the 404 envelope: the others are 405, as on a known path. */
const UNKNOWN_PATH_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);


function allowOf(methods: Set<string>): string {
  return [...methods, ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
}

/**
 * Paths first, then methods, as the API has always been routed: the path picks its operations (a fixed
 * segment before a path id, so /v1/wallets/fund is never a wallet id), and a method none of them serves
 * is 405 with `Allow`, whatever the request carries. OPTIONS answers with `Allow` alone.
 */
export function routing(routesOf: () => ReadonlyArray<{ method: string; path: string }>): MiddlewareHandler<ApiEnv> {
  let table: ((path: string) => PathMethods | undefined) | undefined;
  return async (c, next) => {
    const path = pathOf(c.req.url);
    try {
      decodeURIComponent(path);
    } catch {
      return json({
        status: false,
        message: 'The request path is not valid percent-encoding.',
        code: 'VALIDATION_ERROR',
        errors: [{ field: '(path)', message: 'invalid percent-encoding' }],
      }, 400);
    }
    if (path.length > 1 && path.endsWith('/')) {
      const query = c.req.url.indexOf('?');
      const location = path.replace(/\/+$/, '') + (query === -1 ? '' : c.req.url.slice(query));
      // As Next answers one, where it serves /v1 (`next dev`).
      return new Response(location, { status: 308, headers: { location, refresh: `0;url=${location}` } });
    }
    const method = c.req.method;
    // Read on the first request, once every operation is registered.
    const served = (table ??= lookupTable(routesOf()))(path);
    const methods = served?.methods ?? UNKNOWN_PATH_METHODS;
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: allowOf(methods) } });
    if (methods.has(method) || (method === 'HEAD' && methods.has('GET'))) return next();
    const allow = allowOf(methods);
    return json({ status: false, message: `${method} is not allowed here: use ${allow}.`, code: 'METHOD_NOT_ALLOWED' }, 405, { allow });
  };
}

function lookupTable(routes: ReadonlyArray<{ method: string; path: string }>): (path: string) => PathMethods | undefined {
  const byPath = new Map<string, PathMethods>();
  for (const { method, path } of routes) {
    if (method === 'ALL') continue;
    const entry = byPath.get(path) ?? { segments: path.split('/').slice(1), methods: new Set<string>() };
    entry.methods.add(method);
    byPath.set(path, entry);
  }
  const exact = new Map([...byPath].filter(([path]) => !path.includes('/:')));
  const patterns = [...byPath.values()].filter((entry) => entry.segments.some((s) => s.startsWith(':')));
  const matches = (entry: PathMethods, segments: string[]) =>
    entry.segments.length === segments.length && entry.segments.every((s, i) => s.startsWith(':') ? segments[i] !== '' : s === segments[i]);
  /** The most specific pattern: a fixed segment wins over a path id at the first place they differ. */
  const moreSpecific = (a: PathMethods, b: PathMethods) => {
    for (let i = 0; i < a.segments.length; i++) {
      const aFixed = !a.segments[i]!.startsWith(':');
      const bFixed = !b.segments[i]!.startsWith(':');
      if (aFixed !== bFixed) return aFixed ? a : b;
    }
    return a;
  };
  return (path: string): PathMethods | undefined => {
    const found = exact.get(path);
    if (found) return found;
    const segments = path.split('/').slice(1);
    let best: PathMethods | undefined;
    for (const entry of patterns) if (matches(entry, segments)) best = best ? moreSpecific(best, entry) : entry;
    return best;
  };
}

/** A /v1 path no operation serves: the API's own 404 envelope, not the site's HTML page. */
export function unknownOperation(method: string, url: string): Response {
  return json({ status: false, message: `There is no operation ${method} ${pathOf(url)}: see /docs for the API reference.`, code: 'NOT_FOUND' }, 404);
}
