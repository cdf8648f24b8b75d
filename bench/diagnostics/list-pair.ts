/**
 * Usage: npx tsx --conditions=react-server bench/diagnostics/list-pair.ts --other=/path/to/other/worktree [--database=pglite|postgres] [--rounds=3] [--seconds=6] [--concurrency=8,32] [--read='list transactions']
 *
 * One of the bench's reads (bench/scenarios.ts READS; "list transactions" unless --read names another: pages 1–5 of 20 on the
 * bench's 100-transaction dataset) on this checkout's
 * production build and another worktree's, side by side: both servers run at once on datasets made alike, and
 * each round measures one side then the other at every concurrency, alternating which goes first, so that the
 * shared machine's slow spells fall on both. Prints each round and the median op/s per side (bench/median.ts).
 * Each worktree must have its own production build (scripts/ensure-build.ts). PostgreSQL needs TEST_DATABASE_URL.
 */
import path from 'node:path';
import { cliFlags } from '../generate-data';
import { measureClosed, type Target } from '../measure';
import { median } from '../median';
import { prepareDataset, READS, type Dataset } from '../scenarios';

type Side = { name: string; target: Target; data: Dataset; stop: () => Promise<void> };

async function startSide(name: string, root: string, database: string, read: string): Promise<Side> {
  // Each worktree's own server starter, so that it runs that worktree's build.
  const { startTestServer } = (await import(path.join(root, 'e2e/support/test-server.ts'))) as typeof import('../../e2e/support/test-server');
  if (database === 'postgres' && !process.env.TEST_DATABASE_URL) throw new Error('--database=postgres needs TEST_DATABASE_URL');
  const server = await startTestServer();
  const data = await prepareDataset(server.baseUrl, server.operatorKey, 8);
  const target: Target = { pid: server.process.pid as number, baseUrl: server.baseUrl, key: data.key, output: server.output };
  // Warm the server's compiled paths and statement caches before anything is measured.
  await measureClosed(target, 'warm', [], 8, 3000, () => READS[read]!(data));
  return { name, target, data, stop: server.stop };
}

const USAGE = 'Usage: npx tsx --conditions=react-server bench/diagnostics/list-pair.ts --other=/path/to/other/worktree [--database=pglite|postgres] [--rounds=3] [--seconds=6] [--concurrency=8,32] [--read=\'list transactions\']';

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const args = cliFlags();
  const other = args.get('other');
  if (!other) throw new Error('Name the other worktree: --other=/work/wt-base');
  const database = args.get('database') ?? 'pglite';
  if (database === 'pglite') delete process.env.TEST_DATABASE_URL;
  const rounds = Number(args.get('rounds') ?? 3);
  const ms = Number(args.get('seconds') ?? 6) * 1000;
  const read = args.get('read') ?? 'list transactions';
  if (!READS[read]) throw new Error(`--read is one of: ${Object.keys(READS).join(', ')}`);
  const concurrencies = (args.get('concurrency') ?? '8,32').split(',').map(Number);
  const sides = [await startSide(path.basename(other), path.resolve(other), database, read), await startSide('this', path.resolve(__dirname, '../..'), database, read)];
  const figures = new Map<string, number[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const c of concurrencies) {
        for (const side of order) {
          const result = await measureClosed(side.target, `${side.name} c=${c}`, [read], c, ms, () => READS[read]!(side.data));
          const key = `${side.name} c=${c}`;
          figures.set(key, [...(figures.get(key) ?? []), result.operationsPerSecond]);
        }
      }
    }
  } finally {
    for (const side of sides) await side.stop();
  }
  console.log(`\n${database}, ${read}: median op/s of ${rounds} rounds`);
  for (const [key, values] of figures) console.log(`  ${key.padEnd(24)} ${String(median(values)).padStart(7)}   (${values.join(', ')})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
