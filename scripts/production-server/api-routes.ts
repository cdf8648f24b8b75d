/**
 * The /v1 route handlers of the production build, found the way Next finds them: the build's routes
 * manifest (static routes first, then dynamic ones in Next's own order of precedence) and its app-paths
 * manifest (which file holds each route's module).
 *
 * No `server-only` here: this runs in the production server's own process, outside Next's bundles.
 */
import fs from 'node:fs';
import path from 'node:path';

export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type HeaderRule = { regex: RegExp; headers: Array<{ key: string; value: string }> };

type ManifestRoute = { page: string; namedRegex: string; routeKeys: Record<string, string> };
type RoutesManifest = {
  staticRoutes: ManifestRoute[];
  dynamicRoutes: ManifestRoute[];
  headers: Array<{ regex: string; headers: Array<{ key: string; value: string }>; has?: unknown; missing?: unknown }>;
};
/** What the build's route module exposes once loaded: Next's AppRouteRouteModule, and the file's own exports. */
type CompiledRoute = { routeModule?: { ensureUserland?: () => Promise<void>; userland?: Record<string, unknown> } };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export type ApiRoute = {
  regex: RegExp;
  /** The regex's named groups and the parameter each one fills; catch-all parameters are split on `/`. */
  params: Array<{ group: string; name: string; catchAll: boolean }>;
  /** Its handler per method (HEAD, OPTIONS and missing methods are Next's), or null when Next must serve it (a prerendered route). */
  handlers: Map<string, RouteHandler> | null;
  /** The methods its module exports, prerendered or not: what an `Allow` header lists besides HEAD and OPTIONS. */
  methods: string[];
};

export type ApiRouteTable = { routes: ApiRoute[]; headerRules: HeaderRule[] };

/** Reads the build's manifests and loads every /v1 module: a build this server cannot call stops it at start. */
export async function loadApiRouteTable(root: string): Promise<ApiRouteTable> {
  const serverDir = path.join(root, '.next/server');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, '.next/routes-manifest.json'), 'utf8')) as RoutesManifest;
  const appPaths = JSON.parse(fs.readFileSync(path.join(serverDir, 'app-paths-manifest.json'), 'utf8')) as Record<string, string>;
  if (manifest.headers.some((rule) => rule.has || rule.missing)) {
    throw new Error('next.config.js has header rules with `has`/`missing` conditions, which the /v1 fast path does not evaluate.');
  }
  const routes = await Promise.all(
    [...manifest.staticRoutes, ...manifest.dynamicRoutes]
      .filter((route) => route.page.startsWith('/v1/') && appPaths[`${route.page}/route`])
      .map(async (route) => ({
        regex: new RegExp(route.namedRegex),
        params: Object.keys(route.routeKeys).map((group) => {
          const name = group.replace(/^nxtP/, '');
          return { group, name, catchAll: route.page.includes(`[...${name}]`) || route.page.includes(`[[...${name}]]`) };
        }),
        ...(await loadHandlers(path.join(serverDir, appPaths[`${route.page}/route`]!))),
      })),
  );
  const headerRules = manifest.headers.map((rule) => ({ regex: new RegExp(rule.regex), headers: rule.headers }));
  return { routes, headerRules };
}

export function matchApiRoute(table: ApiRouteTable, pathname: string): { route: ApiRoute; params: Record<string, string | string[]> } | undefined {
  for (const route of table.routes) {
    const match = route.regex.exec(pathname);
    if (!match) continue;
    const params: Record<string, string | string[]> = {};
    for (const { group, name, catchAll } of route.params) {
      const value = match.groups?.[group] ?? '';
      params[name] = catchAll ? value.split('/') : value;
    }
    return { route, params };
  }
  return undefined;
}

async function loadHandlers(file: string): Promise<Pick<ApiRoute, 'handlers' | 'methods'>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's CommonJS output, loaded as Next loads it
  const compiled = require(file) as CompiledRoute;
  const routeModule = compiled.routeModule;
  if (!routeModule?.ensureUserland) throw new Error(`${file} is not an app route module this server knows how to call (a Next.js upgrade?)`);
  await routeModule.ensureUserland();
  const userland = routeModule.userland ?? {};
  const methods = METHODS.filter((method) => typeof userland[method] === 'function');
  // A route Next prerenders (force-static) is answered from Next's cache, not by running its handler.
  if (userland.dynamic !== undefined && userland.dynamic !== 'force-dynamic') return { handlers: null, methods };
  return { handlers: new Map(methods.map((method) => [method, userland[method] as RouteHandler])), methods };
}
