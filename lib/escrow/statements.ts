/**
 * A wallet's statement and where each payout came from (docs/decisions.md §18). Pure arithmetic over the
 * wallet's ledger lines, which the caller reads in order (oldest first) and passes in.
 */
import { lagosMonths } from './lagos-months';
import type { TransferKind } from './ledger';
import type { Kobo } from './money';

export const STATEMENT_LINE_KINDS = ['funding', 'checkout', 'escrow_funded', 'escrow_refunded', 'release', 'payout', 'payout_returned'] as const;
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];

const OUTGOING: ReadonlySet<StatementLineKind> = new Set(['escrow_funded', 'payout']);

/** Money in is positive, money out negative. */
export function isIncoming(kind: StatementLineKind): boolean {
  return !OUTGOING.has(kind);
}

/**
 * The line a wallet's posting in a transfer makes, or null when the transfer does not touch a wallet.
 * A settlement pays both parties: the seller's part is a release, the buyer's the rest of its escrow back.
 */
export function statementLineKind(transfer: TransferKind, walletRole: 'buyer' | 'seller'): StatementLineKind | null {
  switch (transfer) {
    case 'wallet_funding':
    case 'live_funding':
      return 'funding';
    case 'checkout_payment':
      return 'checkout';
    case 'milestone_funding':
      return 'escrow_funded';
    case 'refund':
      return 'escrow_refunded';
    case 'release':
    case 'dispute_settlement':
      return walletRole === 'seller' ? 'release' : 'escrow_refunded';
    case 'payout':
      return 'payout';
    case 'payout_returned':
      return 'payout_returned';
    case 'payout_paid':
      return null;
  }
}

export type StatementEntry = {
  at: Date;
  kind: StatementLineKind;
  /** Signed kobo: in positive, out negative. */
  amount: Kobo;
  description: string;
  transactionId: string | null;
  milestoneId: string | null;
  payoutId: string | null;
  checkoutId: string | null;
};

export type StatementLine = StatementEntry & { balanceAfter: Kobo };

export type Statement = { openingBalance: Kobo; closingBalance: Kobo; totalIn: Kobo; totalOut: Kobo; lines: StatementLine[] };

/** The statement from the balance before the period and the period's entries: opening + the lines = closing, always. */
export function buildStatement(openingBalance: Kobo, entries: readonly StatementEntry[]): Statement {
  let balance = openingBalance;
  let totalIn = 0;
  let totalOut = 0;
  const lines = entries.map((entry) => {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0 || entry.amount > 0 !== isIncoming(entry.kind)) {
      throw new Error(`a ${entry.kind} line of ${entry.amount} kobo has the wrong sign`);
    }
    balance += entry.amount;
    if (entry.amount > 0) totalIn += entry.amount;
    else totalOut -= entry.amount;
    return { ...entry, balanceAfter: balance };
  });
  return { openingBalance, closingBalance: balance, totalIn, totalOut, lines };
}

const LAGOS_OFFSET_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * A bound of a statement's period as asked: a date is a Lagos day (`from` its start, `to` its end, so both
 * days are in the period); a date-time is that instant. The value has been validated (lib/contracts/wallets.ts).
 */
export function statementBound(value: string, side: 'from' | 'to'): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00.000Z`) - LAGOS_OFFSET_MS;
    return new Date(side === 'from' ? start : start + DAY_MS);
  }
  return new Date(value);
}

/** `from`/`to` as asked, each defaulting to the Lagos month `now` falls in: [from, to). */
export function statementPeriod(now: Date, from?: Date, to?: Date): { from: Date; to: Date } {
  const month = lagosMonths(now, 1)[0]!;
  return { from: from ?? month.startsAt, to: to ?? month.endsAt };
}

/** A credit a payout can draw on: funding, a checkout, money back from an escrow, a release, a returned payout. */
export type PayoutSource = { kind: StatementLineKind; amount: Kobo; transactionId: string | null; milestoneId: string | null; at: Date };

/**
 * First in, first out: which of the wallet's credits (oldest first, each with what is left of it) a payout
 * of `amount` draws on, and what is left of each afterwards. The sources sum to `amount`; a credit is never
 * drawn beyond what is left of it, and credits that cannot cover `amount` are refused.
 */
export function drawSources(credits: readonly PayoutSource[], amount: Kobo): { sources: PayoutSource[]; left: PayoutSource[] } {
  const sources: PayoutSource[] = [];
  const left: PayoutSource[] = [];
  let owed = amount;
  for (const credit of credits) {
    const drawn = Math.min(owed, Math.max(0, credit.amount));
    if (drawn > 0) sources.push({ ...credit, amount: drawn });
    if (credit.amount - drawn > 0) left.push({ ...credit, amount: credit.amount - drawn });
    owed -= drawn;
  }
  if (owed > 0) throw new Error(`credits of ${amount - owed} kobo cannot cover a payout of ${amount}`);
  return { sources, left };
}

type Draw = { index: number; amount: Kobo };

/**
 * Every payout's sources over a wallet's whole history (oldest first): each debit draws on the oldest
 * credits left, and a payout that comes back returns its draws to the credits it took them from, so a
 * later payout names the deals it really pays for.
 */
export function payoutSources(history: readonly StatementEntry[]): Map<string, PayoutSource[]> {
  const credits: PayoutSource[] = [];
  const left: Kobo[] = [];
  const draws = new Map<string, Draw[]>();
  const sources = new Map<string, PayoutSource[]>();
  let first = 0;
  for (const entry of history) {
    const returned = entry.kind === 'payout_returned' && entry.payoutId ? draws.get(entry.payoutId) : undefined;
    if (returned) {
      for (const d of returned) left[d.index]! += d.amount;
      first = Math.min(first, ...returned.map((d) => d.index));
      draws.delete(entry.payoutId!);
    } else if (entry.amount > 0) {
      credits.push({ kind: entry.kind, amount: entry.amount, transactionId: entry.transactionId, milestoneId: entry.milestoneId, at: entry.at });
      left.push(entry.amount);
    } else {
      const taken: Draw[] = [];
      let owed = -entry.amount;
      for (let i = first; owed > 0 && i < credits.length; i++) {
        const drawn = Math.min(owed, left[i]!);
        if (drawn === 0) continue;
        left[i]! -= drawn;
        owed -= drawn;
        taken.push({ index: i, amount: drawn });
      }
      if (owed > 0) throw new Error(`the wallet's history overdraws it by ${owed} kobo at ${entry.at.toISOString()}`);
      while (first < credits.length && left[first] === 0) first++;
      if (entry.kind === 'payout' && entry.payoutId) {
        draws.set(entry.payoutId, taken);
        sources.set(
          entry.payoutId,
          taken.map((d) => ({ ...credits[d.index]!, amount: d.amount })),
        );
      }
    }
  }
  return sources;
}
