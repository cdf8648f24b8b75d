import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRANSFER_KINDS } from './ledger';
import {
  buildStatement,
  drawSources,
  isIncoming,
  payoutSources,
  STATEMENT_LINE_KINDS,
  statementLineKind,
  statementBound,
  statementPeriod,
  type PayoutSource,
  type StatementEntry,
  type StatementLineKind,
} from './statements';

const T0 = new Date('2026-03-10T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function entry(kind: StatementLineKind, amount: number, over: Partial<StatementEntry> = {}): StatementEntry {
  return { at: T0, kind, amount, description: kind, transactionId: null, milestoneId: null, payoutId: null, checkoutId: null, ...over };
}
const credit = (amount: number, transactionId: string, minutes = 0): PayoutSource => ({ kind: 'release', amount, transactionId, milestoneId: `${transactionId}-m`, at: at(minutes) });

describe('statementLineKind', () => {
  it('names every transfer that touches a wallet by a line kind of §18', () => {
    for (const kind of TRANSFER_KINDS) {
      const line = statementLineKind(kind, 'seller');
      if (kind === 'payout_paid') expect(line).toBeNull();
      else expect(STATEMENT_LINE_KINDS).toContain(line);
    }
    expect(statementLineKind('dispute_settlement', 'seller')).toBe('release');
    expect(statementLineKind('dispute_settlement', 'buyer')).toBe('escrow_refunded');
    expect(statementLineKind('checkout_payment', 'buyer')).toBe('checkout');
  });
});

describe('buildStatement', () => {
  it('runs a balance through the lines, with totals in and out', () => {
    const s = buildStatement(5_000, [entry('release', 10_000), entry('payout', -12_000), entry('payout_returned', 12_000)]);
    expect(s).toMatchObject({ openingBalance: 5_000, closingBalance: 15_000, totalIn: 22_000, totalOut: 12_000 });
    expect(s.lines.map((l) => l.balanceAfter)).toEqual([15_000, 3_000, 15_000]);
  });

  it('refuses a line whose sign contradicts its kind', () => {
    expect(() => buildStatement(0, [entry('payout', 100)])).toThrow();
    expect(() => buildStatement(0, [entry('funding', -100)])).toThrow();
  });

  it('defaults to the Lagos month now falls in', () => {
    // 23:30 UTC on 31 March is 00:30 on 1 April in Lagos.
    expect(statementPeriod(new Date('2026-03-31T23:30:00.000Z'))).toEqual({ from: new Date('2026-03-31T23:00:00.000Z'), to: new Date('2026-04-30T23:00:00.000Z') });
    expect(statementPeriod(T0, at(0), at(5))).toEqual({ from: at(0), to: at(5) });
  });

  it('opening + the lines = closing, always', () => {
    const line = fc.record({ kind: fc.constantFrom(...STATEMENT_LINE_KINDS), amount: fc.integer({ min: 1, max: 10_000_000_00 }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.array(line, { maxLength: 40 }), (opening, lines) => {
        const entries = lines.map((l) => entry(l.kind, isIncoming(l.kind) ? l.amount : -l.amount));
        const s = buildStatement(opening, entries);
        expect(opening + entries.reduce((sum, e) => sum + e.amount, 0)).toBe(s.closingBalance);
        expect(s.openingBalance + s.totalIn - s.totalOut).toBe(s.closingBalance);
        expect(s.lines.at(-1)?.balanceAfter ?? opening).toBe(s.closingBalance);
      }),
    );
  });
});

describe('statementBound', () => {
  it('reads a date as a Lagos day, both ends included, and a date-time as that instant', () => {
    expect(statementBound('2026-03-01', 'from')).toEqual(new Date('2026-02-28T23:00:00.000Z'));
    expect(statementBound('2026-03-31', 'to')).toEqual(new Date('2026-03-31T23:00:00.000Z'));
    expect(statementBound('2026-03-10T09:00:00+01:00', 'to')).toEqual(new Date('2026-03-10T08:00:00.000Z'));
  });
});

describe('drawSources', () => {
  it('draws on the oldest credits first', () => {
    const { sources, left } = drawSources([credit(3_000, 'a', 1), credit(5_000, 'b', 2), credit(1_000, 'c', 3)], 6_000);
    expect(sources).toEqual([credit(3_000, 'a', 1), credit(3_000, 'b', 2)]);
    expect(left).toEqual([credit(2_000, 'b', 2), credit(1_000, 'c', 3)]);
  });

  it('refuses a payout its credits cannot cover', () => {
    expect(() => drawSources([credit(3_000, 'a')], 3_001)).toThrow();
  });

  it('sources always sum to the payout and never overdraw a credit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }), fc.double({ min: 0, max: 1, noNaN: true }), (amounts, share) => {
        const credits = amounts.map((a, i) => credit(a, `t${i}`, i));
        const total = amounts.reduce((s, a) => s + a, 0);
        const amount = Math.floor(share * total);
        const { sources, left } = drawSources(credits, amount);
        expect(sources.reduce((s, c) => s + c.amount, 0)).toBe(amount);
        for (const source of sources) expect(source.amount).toBeLessThanOrEqual(credits.find((c) => c.transactionId === source.transactionId)!.amount);
        expect(left.reduce((s, c) => s + c.amount, 0)).toBe(total - amount);
        // First in, first out: only the last source may be drawn partly.
        for (const source of sources.slice(0, -1)) expect(source.amount).toBe(credits.find((c) => c.transactionId === source.transactionId)!.amount);
      }),
    );
  });
});

describe('payoutSources over a wallet’s history', () => {
  it('skips what escrow funding took, and gives a returned payout’s sources back for the next one', () => {
    const history = [
      entry('funding', 10_000, { transactionId: null, at: at(0) }),
      entry('release', 50_000, { transactionId: 'deal-1', at: at(1) }),
      entry('escrow_funded', -8_000, { transactionId: 'deal-2', at: at(2) }),
      entry('payout', -30_000, { payoutId: 'po-1', at: at(3) }),
      entry('payout_returned', 30_000, { payoutId: 'po-1', at: at(4) }),
      entry('release', 7_000, { transactionId: 'deal-3', at: at(5) }),
      entry('payout', -55_000, { payoutId: 'po-2', at: at(6) }),
    ];
    const sources = payoutSources(history);
    expect(sources.get('po-1')!.map((s) => [s.kind, s.transactionId, s.amount])).toEqual([
      ['funding', null, 2_000],
      ['release', 'deal-1', 28_000],
    ]);
    expect(sources.get('po-2')!.map((s) => [s.kind, s.transactionId, s.amount])).toEqual([
      ['funding', null, 2_000],
      ['release', 'deal-1', 50_000],
      ['release', 'deal-3', 3_000],
    ]);
  });

  it('for any history the wallet could have: each payout’s sources sum to it, and no credit is drawn beyond itself', () => {
    type Op = { t: 'credit'; amount: number } | { t: 'debit'; share: number; payout: boolean } | { t: 'return' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ t: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 1_000_000 }) }),
      fc.record({ t: fc.constant('debit' as const), share: fc.double({ min: 0, max: 1, noNaN: true }), payout: fc.boolean() }),
      fc.record({ t: fc.constant('return' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const history: StatementEntry[] = [];
        const outstanding: { id: string; amount: number }[] = [];
        let balance = 0;
        ops.forEach((o, i) => {
          if (o.t === 'credit') {
            history.push(entry('release', o.amount, { transactionId: `deal-${i}`, at: at(i) }));
            balance += o.amount;
          } else if (o.t === 'debit') {
            const amount = Math.floor(o.share * balance);
            if (amount === 0) return;
            history.push(entry(o.payout ? 'payout' : 'escrow_funded', -amount, { payoutId: o.payout ? `po-${i}` : null, at: at(i) }));
            if (o.payout) outstanding.push({ id: `po-${i}`, amount });
            balance -= amount;
          } else {
            const back = outstanding.shift();
            if (!back) return;
            history.push(entry('payout_returned', back.amount, { payoutId: back.id, at: at(i) }));
            balance += back.amount;
          }
        });
        const sources = payoutSources(history);
        for (const payout of history.filter((e) => e.kind === 'payout')) {
          expect(sources.get(payout.payoutId!)!.reduce((s, c) => s + c.amount, 0)).toBe(-payout.amount);
        }
        // Outstanding payouts (not returned) never draw more from a credit than the credit was.
        const drawn = new Map<string, number>();
        for (const { id } of outstanding) for (const s of sources.get(id)!) drawn.set(s.transactionId!, (drawn.get(s.transactionId!) ?? 0) + s.amount);
        for (const [deal, amount] of drawn) expect(amount).toBeLessThanOrEqual(history.find((e) => e.transactionId === deal)!.amount);
      }),
    );
  });
});
