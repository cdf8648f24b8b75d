/**
 * `node --import` this before the production server: it loads the app's TypeScript with tsx, resolving
 * imports by tsconfig.server.json. That file maps `server-only` to an empty module: the marker throws
 * outside React's server bundles, and the server loads lib/api and lib/server straight from source,
 * outside Next's bundles. (Next's own bundles resolve it as React Server Components do.)
 */
import { fileURLToPath } from 'node:url';

process.env.TSX_TSCONFIG_PATH = fileURLToPath(new URL('../../tsconfig.server.json', import.meta.url));
await import('tsx');
