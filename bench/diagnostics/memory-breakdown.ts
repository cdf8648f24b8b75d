/**
 * Where a production server's memory goes under the main run's load: the server started with
 * memory-probe.mjs, the main run's reads and lifecycles at c=8 and c=32 against it, then its peak resident memory
 * by kind (V8's heap and its spaces, PGlite's WebAssembly memory, the rest), read inside the server.
 *
 *   npx tsx --conditions=react-server bench/diagnostics/memory-breakdown.ts [--database=pglite|postgres] [--seconds=4] [--node-args='--max-semi-space-size=8']
 *
 * On PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) the server runs as deployed:
 * the probe's figures are then each process's, one file per process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AS_DEPLOYED, startTestServer } from '../../e2e/support/test-server';
import { cliFlags } from '../generate-data';
import { measureClosed, type Target } from '../measure';
import { samplePeakRssByProcess } from '../memory';
import { LIFECYCLES, prepareDataset, READS } from '../scenarios';

const PROBE = path.resolve(__dirname, 'memory-probe.mjs');

async function main() {
  const flags = cliFlags();
  const database = flags.get('database') === 'postgres' ? 'postgres' : 'pglite';
  const ms = Number(flags.get('seconds') ?? '4') * 1000;
  const extraNodeArgs = process.argv.find((a) => a.startsWith('--node-args='))?.slice('--node-args='.length).split(' ').filter(Boolean) ?? [];
  if (database === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  else delete process.env.TEST_DATABASE_URL;
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-memory-'));
  const server = await startTestServer({
    nodeArgs: [...extraNodeArgs, '--expose-gc', '--import', PROBE],
    env: { ESCROW_DB_POOL_SIZE: '10', MEMORY_PROBE_DIR: probeDir, ...(database === 'postgres' ? AS_DEPLOYED : {}) },
  });
  const pid = server.process.pid as number;
  const stopSampling = samplePeakRssByProcess(pid);
  try {
    const data = await prepareDataset(server.baseUrl, server.operatorKey, 128);
    const target: Target = { pid, baseUrl: server.baseUrl, key: data.key, output: server.output };
    for (const [name, make] of Object.entries(READS)) for (const c of [8, 32, 128]) await measureClosed(target, name, [name], c, ms, () => make(data));
    for (const [name, lifecycle] of Object.entries(LIFECYCLES)) {
      for (const c of [8, 32, 128]) await measureClosed(target, name, lifecycle.operations, c, ms, (w) => lifecycle.run(data, data.pairs[w % data.pairs.length]!));
    }
    console.log(`each process's peak RSS (MB, from /proc): ${JSON.stringify(stopSampling())}`);
    // Each process collects all it can and reads itself again (memory-probe.mjs); it writes every 200 ms.
    for (const file of fs.readdirSync(probeDir).filter((f) => f.endsWith('.json'))) process.kill(Number(path.basename(file, '.json')), 'SIGUSR2');
    await new Promise((r) => setTimeout(r, process.env.MEMORY_PROBE_SNAPSHOT ? 30_000 : 1000));
    for (const file of fs.readdirSync(probeDir).filter((f) => f.endsWith('.json'))) {
      const { role, atPeak, peaks, first, timeline, afterFullGc } = JSON.parse(fs.readFileSync(path.join(probeDir, file), 'utf8'));
      console.log(`\n${role} (${file})\n  after start: ${JSON.stringify(first)}\n  at the RSS peak: ${JSON.stringify(atPeak)}\n  each kind's own peak: ${JSON.stringify(peaks)}\n  after a full collection at the end: ${JSON.stringify(afterFullGc)}`);
      if (flags.has('timeline')) console.log(`  each second: ${(timeline as string[]).join('\n    ')}`);
    }
  } finally {
    await server.stop();
    if (process.env.MEMORY_PROBE_SNAPSHOT) console.log(`heap snapshots in ${probeDir}`);
    else fs.rmSync(probeDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
