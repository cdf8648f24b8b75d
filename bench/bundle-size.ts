/**
 * First-load JavaScript per route of the production build, gzipped as a browser receives it.
 * Next 16 no longer prints sizes; the build writes which chunks each route loads first.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export type RouteBundle = { route: string; rawBytes: number; gzipBytes: number };

type RouteBundleStat = { route: string; firstLoadChunkPaths: string[] };

export function firstLoadJs(root: string): RouteBundle[] {
  const statsFile = path.join(root, '.next/diagnostics/route-bundle-stats.json');
  const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as RouteBundleStat[];
  const gzipOf = new Map<string, number>();
  const sizeOf = (chunk: string) => {
    let gzip = gzipOf.get(chunk);
    if (gzip === undefined) {
      gzip = zlib.gzipSync(fs.readFileSync(path.join(root, chunk)), { level: 9 }).length;
      gzipOf.set(chunk, gzip);
    }
    return gzip;
  };
  return stats
    .filter((stat) => !stat.route.startsWith('/v1') && !stat.route.startsWith('/api'))
    .map((stat) => ({
      route: stat.route,
      rawBytes: stat.firstLoadChunkPaths.reduce((sum, chunk) => sum + fs.statSync(path.join(root, chunk)).size, 0),
      gzipBytes: stat.firstLoadChunkPaths.reduce((sum, chunk) => sum + sizeOf(chunk), 0),
    }))
    .sort((a, b) => a.route.localeCompare(b.route));
}

if (require.main === module) {
  const rows = firstLoadJs(path.resolve(__dirname, '..'));
  for (const row of rows) {
    console.log(`${row.route.padEnd(32)} ${(row.rawBytes / 1024).toFixed(0).padStart(5)} kB raw ${(row.gzipBytes / 1024).toFixed(1).padStart(7)} kB gzip`);
  }
}
