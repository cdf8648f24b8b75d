import { describe, expect, it } from 'vitest';
import { enoughRounds, equalWithinNoise, judgedFigure, latencyRatioWithin, latencyWithin } from './noise-rule';

describe('the noise rule', () => {
  it('judges a latency on the median of its rounds, whatever their order', () => {
    expect(judgedFigure([9, 41, 8, 7, 10])).toBe(9);
    expect(enoughRounds([1, 2, 3, 4])).toBe(false);
    expect(enoughRounds([1, 2, 3, 4, 5])).toBe(true);
  });

  it('counts two figures under 15 ms at most 5 ms apart as equal', () => {
    expect(equalWithinNoise(12, 7)).toBe(true);
    expect(equalWithinNoise(7, 12)).toBe(true);
    expect(equalWithinNoise(12.1, 7)).toBe(false);
    expect(equalWithinNoise(16, 12)).toBe(false);
  });

  it('meets a ratio target where the two figures are equal within noise, and only there', () => {
    expect(latencyRatioWithin(12, 5, 2)).toEqual({ met: false, ratio: 2.4, equal: false });
    expect(latencyRatioWithin(9, 4.5, 1.25)).toMatchObject({ met: true, equal: true });
    expect(latencyRatioWithin(30, 20, 1.25)).toMatchObject({ met: false, equal: false });
    expect(latencyRatioWithin(24, 20, 1.25)).toMatchObject({ met: true, equal: false });
  });

  it('leaves a limit above the noise floor as it is', () => {
    expect(latencyWithin(50, 50)).toBe(true);
    expect(latencyWithin(50.5, 50)).toBe(false);
  });
});
