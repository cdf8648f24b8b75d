/**
 * Usage: npx tsx bench/diagnostics/host-slowdowns.ts [seconds=10]
 *
 * The machine's own slow spells in detail, on the idle machine: the busy loop per core of bench/slow-spells.ts,
 * with its slow windows broken down into spells (runs of slow windows on one core), the longest of them, the
 * slowest window's pace, and the share of slow windows whose thread was off its CPU (the CPU taken away, as
 * steal time or another process) rather than on a CPU that ran slow (a host busy with other guests). Prints JSON.
 */
import { median } from '../median';
import { share, SLOW_PACE, spinEveryCore, WINDOW_MS, type CoreWindows } from '../slow-spells';

type HostSlowdowns = {
  seconds: number;
  windowMs: number;
  /** Share of all cores' windows that ran under 60% of their thread's median pace. */
  slowShare: number;
  /** Of those, the share in which the thread was on a CPU for under 80% of the window. */
  offCpuShare: number;
  /** Runs of consecutive slow windows on one core, and the longest of them. */
  spells: number;
  longestSpellMs: number;
  /** The slowest window's pace against the median (0.1 = a tenth of the work done). */
  slowestPace: number;
};

function summarizeSlowdowns(perCore: CoreWindows[], seconds: number): HostSlowdowns {
  let windows = 0;
  let slow = 0;
  let offCpu = 0;
  let spells = 0;
  let longest = 0;
  let slowestPace = 1;
  for (const { counts, onCpu } of perCore) {
    const middle = median(counts);
    if (middle === 0) continue;
    let run = 0;
    // A window at the median's pace after the last closes a spell still open at the end.
    for (const [i, count] of [...counts, middle].entries()) {
      const pace = count / middle;
      if (pace < SLOW_PACE) {
        slow++;
        if ((onCpu[i] ?? WINDOW_MS) < WINDOW_MS * 0.8) offCpu++;
        run++;
        slowestPace = Math.min(slowestPace, pace);
        continue;
      }
      if (run > 0) {
        spells++;
        longest = Math.max(longest, run * WINDOW_MS);
      }
      run = 0;
    }
    windows += counts.length;
  }
  return { seconds, windowMs: WINDOW_MS, slowShare: share(slow, windows), offCpuShare: share(offCpu, slow), spells, longestSpellMs: longest, slowestPace: Math.round(slowestPace * 100) / 100 };
}

async function main() {
  const seconds = Number(process.argv[2] ?? 10);
  if (process.argv.includes('--help') || !(seconds > 0)) {
    console.log('Usage: npx tsx bench/diagnostics/host-slowdowns.ts [seconds=10]');
    return;
  }
  console.log(JSON.stringify(summarizeSlowdowns(await spinEveryCore(seconds), seconds)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
