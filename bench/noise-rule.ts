/**
 * The bench's one rule for noise, read by every latency target in bench/report.ts: a latency figure is the
 * median of at least five alternating rounds, and where both figures of a comparison are under 15 ms, a
 * difference of at most 5 ms counts as equal, since a pause of this machine's cores moves a p99 that much
 * on any server (bench/README.md, "Why these choices").
 */
import { median } from './median';

export const MIN_ROUNDS = 5;
export const NOISE_FLOOR_MS = 15;
export const EQUAL_WITHIN_MS = 5;

/** The figure a latency target reads from its rounds: their median. */
export const judgedFigure = (rounds: readonly number[]): number => median(rounds);

/** Whether a figure had the rounds the rule asks for (a --quick run has fewer). */
export const enoughRounds = (rounds: readonly number[]): boolean => rounds.length >= MIN_ROUNDS;

/** Two latencies that the machine's noise cannot tell apart: both under 15 ms and at most 5 ms apart. */
export function equalWithinNoise(a: number, b: number): boolean {
  return a < NOISE_FLOOR_MS && b < NOISE_FLOOR_MS && Math.abs(a - b) <= EQUAL_WITHIN_MS;
}

/** A latency against a fixed limit in ms; a limit under the noise floor is met by a figure equal to it within noise. */
export function latencyWithin(measuredMs: number, limitMs: number): boolean {
  return measuredMs <= limitMs || equalWithinNoise(measuredMs, limitMs);
}

/** A latency against another (`measured ≤ maxRatio × base`); met too where the two are equal within noise. */
export function latencyRatioWithin(measuredMs: number, baseMs: number, maxRatio: number): { met: boolean; ratio: number; equal: boolean } {
  const ratio = baseMs > 0 ? measuredMs / baseMs : Number.POSITIVE_INFINITY;
  const equal = equalWithinNoise(measuredMs, baseMs);
  return { met: ratio <= maxRatio || equal, ratio, equal };
}
