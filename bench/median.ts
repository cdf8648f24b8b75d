/**
 * The bench's one median. Of an even number of values it takes the lower middle one: the bench's rounds
 * are few, and a round a pause spoiled should not decide the figure by being one of the two middle ones.
 */
export function medianOf<T>(items: readonly T[], figure: (item: T) => number): T | undefined {
  const sorted = [...items].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** medianOf for plain numbers; 0 for none. */
export const median = (xs: readonly number[]): number => medianOf(xs, (x) => x) ?? 0;
