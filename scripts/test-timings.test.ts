import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { checkoutRoot, playwrightTimes, timingLines, vitestTimes } from './test-timings';

describe('test timings', () => {
  it("reads a vitest report's files and its wall clock", () => {
    const times = vitestTimes(
      {
        startTime: 1_000,
        testResults: [
          { name: '/repo/e2e/api/a.test.ts', startTime: 1_000, endTime: 31_000, assertionResults: [{}, {}] },
          { name: '/repo/lib/b.test.ts', startTime: 2_000, endTime: 4_500, assertionResults: [{}] },
        ],
      },
      'vitest-embedded',
      () => '/repo',
    );
    expect(times.wallSeconds).toBe(30);
    expect(times.files).toEqual([
      { file: 'e2e/api/a.test.ts', seconds: 30, tests: 2 },
      { file: 'lib/b.test.ts', seconds: 2.5, tests: 1 },
    ]);
  });

  it("adds a spec file's results across its describe blocks and retries", () => {
    const times = playwrightTimes(
      {
        stats: { duration: 90_000 },
        suites: [
          {
            file: 'wallet.spec.ts',
            specs: [{ tests: [{ results: [{ duration: 10_000 }, { duration: 5_000 }] }] }],
            suites: [{ file: 'wallet.spec.ts', specs: [{ tests: [{ results: [{ duration: 20_000 }] }] }] }],
          },
          { file: 'lists.spec.ts', specs: [{ tests: [{ results: [{ duration: 7_000 }] }] }] },
        ],
      },
      'playwright-embedded',
    );
    expect(times.files).toEqual([
      { file: 'e2e/dashboard/wallet.spec.ts', seconds: 35, tests: 2 },
      { file: 'e2e/dashboard/lists.spec.ts', seconds: 7, tests: 1 },
    ]);
    expect(timingLines(times, 1)).toEqual([
      'playwright-embedded: 2 files, 90 s on the clock, 42 s of file time',
      '     35.0 s     2 tests  e2e/dashboard/wallet.spec.ts',
      '  … 1 more, 7 s together',
    ]);
  });

  it('names files from the checkout they ran in, wherever that was cloned', () => {
    expect(checkoutRoot(path.join(__dirname, 'test-timings.test.ts'))).toBe(path.resolve(__dirname, '..'));
  });
});
