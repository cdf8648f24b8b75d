import { describe, expect, it } from 'vitest';
import { decideRating, ratingSummary } from './ratings';

describe('ratings', () => {
  it('each party rates once, and only a completed transaction', () => {
    const done = { status: 'COMPLETED' as const, hasBuyerRated: false, hasSellerRated: false };
    expect(decideRating(done, 'buyer')).toEqual({ ok: true });
    expect(decideRating({ ...done, hasBuyerRated: true }, 'buyer')).toEqual({ ok: false, message: 'The buyer has already rated this transaction.' });
    expect(decideRating({ ...done, hasBuyerRated: true }, 'seller')).toEqual({ ok: true });
    for (const status of ['MILESTONE_IN_PROGRESS', 'CANCELED', 'TERMINATED'] as const) expect(decideRating({ ...done, status }, 'seller').ok).toBe(false);
  });

  it('sums up a user’s scores to one decimal', () => {
    expect(ratingSummary(0, 0)).toEqual({ average: null, count: 0 });
    expect(ratingSummary(5 + 4 + 4, 3)).toEqual({ average: 4.3, count: 3 });
    expect(ratingSummary(1, 1)).toEqual({ average: 1, count: 1 });
  });
});
