import 'server-only';
import type { PayoutRecord } from '@/lib/contracts/payouts';
import { koboToNaira } from '@/lib/escrow/money';
import { payoutSources, type PayoutSource } from '@/lib/escrow/statements';
import type { DbOrTx } from '../db/client';
import type { payouts } from '../db/schema';
import { iso } from '../records/iso';
import { walletLines } from '../records/wallet-lines';

type PayoutRow = typeof payouts.$inferSelect;

function sourceRecord(s: PayoutSource): PayoutRecord['sources'][number] {
  return { kind: s.kind, amount: koboToNaira(s.amount), transaction_id: s.transactionId, milestone_id: s.milestoneId, at: iso(s.at) };
}

/**
 * Each payout's sources (docs/decisions.md §18): its wallet's history read once per wallet, up to the newest
 * of its payouts asked for, since later lines never change what an earlier payout drew on.
 */
export async function sourcesOfPayouts(db: DbOrTx, rows: readonly PayoutRow[]): Promise<Map<string, PayoutRecord['sources']>> {
  const byWallet = new Map<string, PayoutRow[]>();
  for (const row of rows) byWallet.set(row.walletId, [...(byWallet.get(row.walletId) ?? []), row]);
  const found = new Map<string, PayoutRecord['sources']>();
  for (const [walletId, ofWallet] of byWallet) {
    const through = new Date(Math.max(...ofWallet.map((p) => p.createdAt.getTime())));
    const history = await walletLines(db, { clientId: ofWallet[0]!.clientId, userId: ofWallet[0]!.userId, walletId }, { through });
    const sources = payoutSources(history);
    for (const p of ofWallet) found.set(p.id, (sources.get(p.id) ?? []).map(sourceRecord));
  }
  return found;
}
