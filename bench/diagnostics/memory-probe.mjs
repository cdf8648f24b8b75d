/**
 * `node --import` this into a server to see where its memory goes: every 200 ms it reads the process's resident
 * memory by kind (V8's heap, WebAssembly memory, the rest) and writes each kind's peak, and the reading at the
 * RSS peak, to <pid>.json in the directory MEMORY_PROBE_DIR names. Diagnostics only (bench/diagnostics/memory-breakdown.ts).
 */
import fs from 'node:fs';
import v8 from 'node:v8';

const out = process.env.MEMORY_PROBE_DIR && `${process.env.MEMORY_PROBE_DIR}/${process.pid}.json`;
const role = process.env.ESCROW_WORKER_ROLE ?? (process.env.ESCROW_WORKER ? `worker ${process.env.ESCROW_WORKER}` : 'server or primary');
const MB = 1048576;
const memories = [];
const OriginalMemory = WebAssembly.Memory;
// Counts each WebAssembly memory made (PGlite's), so that its size can be read beside the heap's.
WebAssembly.Memory = new Proxy(OriginalMemory, {
  construct(target, args) {
    const memory = Reflect.construct(target, args);
    memories.push(new WeakRef(memory));
    return memory;
  },
});

/** Resident MB of the WebAssembly memories (the mappings of exactly their size) and of the rest, from /proc/self/smaps. */
function residentByMapping(wasmSizes) {
  let wasm = 0;
  let file = 0;
  let anonymous = 0;
  let kind = 'anonymous';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2], 16) - parseInt(head[1], 16);
      kind = wasmSizes.includes(size) ? 'wasm' : head[3] !== '0' || head[4].startsWith('/') ? 'file' : 'anonymous';
      continue;
    }
    if (!line.startsWith('Rss:')) continue;
    const kb = Number(line.split(/\s+/)[1]);
    if (kind === 'wasm') wasm += kb;
    else if (kind === 'file') file += kb;
    else anonymous += kb;
  }
  return { wasmResident: Math.round(wasm / 1024), fileBacked: Math.round(file / 1024), otherAnonymous: Math.round(anonymous / 1024) };
}

function reading() {
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / MB)]));
  const wasmSizes = memories.map((ref) => ref.deref()?.buffer.byteLength ?? 0).filter(Boolean);
  const wasmSize = wasmSizes.reduce((sum, size) => sum + size, 0);
  return {
    rss: Math.round(usage.rss / MB),
    heapTotal: Math.round(usage.heapTotal / MB),
    heapUsed: Math.round(usage.heapUsed / MB),
    external: Math.round(usage.external / MB),
    arrayBuffers: Math.round(usage.arrayBuffers / MB),
    wasmMemory: Math.round(wasmSize / MB),
    wasmMemories: wasmSizes.length,
    ...residentByMapping(wasmSizes),
    spaces,
  };
}

if (out) {
  const peaks = {};
  let atPeak = null;
  let first = null;
  const timeline = [];
  let ticks = 0;
  let afterFullGc = null;
  // With --expose-gc, SIGUSR2 collects everything it can: the heap that is left is the live one.
  if (typeof globalThis.gc === 'function') {
    process.on('SIGUSR2', () => {
      globalThis.gc();
      globalThis.gc();
      afterFullGc = reading();
      if (process.env.MEMORY_PROBE_SNAPSHOT) v8.writeHeapSnapshot(`${process.env.MEMORY_PROBE_DIR}/${process.pid}.heapsnapshot`);
    });
  }
  const timer = setInterval(() => {
    const now = reading();
    first ??= now;
    for (const [key, value] of Object.entries(now)) if (typeof value === 'number') peaks[key] = Math.max(peaks[key] ?? 0, value);
    if (!atPeak || now.rss >= atPeak.rss) atPeak = now;
    // One reading a second, without the spaces, to see when each kind grew.
    if (ticks++ % 5 === 0) timeline.push(Object.values(now).filter((v) => typeof v === 'number').join(' '));
    // Written whole and then renamed, so that a reader never sees half of it.
    fs.writeFileSync(`${out}.part`, JSON.stringify({ pid: process.pid, role, first, now, atPeak, peaks, afterFullGc, timeline: [Object.keys(now).filter((k) => k !== 'spaces').join(' '), ...timeline] }, null, 1));
    fs.renameSync(`${out}.part`, out);
  }, 200);
  timer.unref();
}
