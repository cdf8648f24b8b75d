import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './lib/api/security-headers';

/**
 * Pages only: scripts, styles, images and requests from this origin. Next's hydration needs inline
 * scripts; everything else (frames, plugins, foreign forms) is refused.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files it loads from its own package directory; pg has optional native bits.
  // drizzle-orm: bundled, each group of routes got its own copy, and its entity checks (`is`) fell back to
  // walking prototype chains whenever a table of one copy met the other's classes: 12% of the CPU.
  // rate-limiter-flexible: loads drizzle-orm with a computed import() that a bundle cannot resolve.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'drizzle-orm', 'rate-limiter-flexible'],
  poweredByHeader: false,
  // The build checks the app's own code; tests and scripts are checked by `npm run typecheck` in `npm test`.
  typescript: { tsconfigPath: 'tsconfig.build.json' },
  experimental: {
    // A page's modules load with its first request, not all at start: a process that answers the API, as the
    // request workers mostly do, then holds none of the dashboard's (bench/README.md, "Where the memory goes").
    preloadEntriesOnStart: false,
    // proxy.ts makes Next buffer request bodies, silently cut at this size: keep it above our own
    // limits (10 MB uploads plus multipart framing) so the API, not a truncation, decides.
    proxyClientMaxBodySize: '11mb',
  },
  reactStrictMode: true,
  async headers() {
    return [
      // /v1 too under `next dev`; the production server hands /v1 to the API app, which adds the same ones.
      { source: '/:path*', headers: [...SECURITY_HEADERS] },
      // Not on /proofs: a proof file carries its own sandboxing policy, and a second header would replace it.
      { source: '/((?!v1/|api/|proofs/).*)', headers: [{ key: 'Content-Security-Policy', value: contentSecurityPolicy }] },
    ];
  },
};

export default nextConfig;
