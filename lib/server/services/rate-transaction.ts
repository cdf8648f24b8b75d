import 'server-only';
import { sql } from 'drizzle-orm';
import type { TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import type { TransactionStatus } from '@/lib/escrow/milestone-machine';
import { decideRating } from '@/lib/escrow/ratings';
import type { Db } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { milestoneLogs, ratings, type ClientRow } from '../db/schema';
import { eventWrites } from '../events/record-event';
import { uuidv7 } from '../ids';
import { invalidState } from '../app-error';
import type { TransactionGraph } from '../records/transaction-graph/queries';
import { transactionWithMilestonesRecord } from '../records/transaction-graph/present';
import { runTransactionAction, type TransactionActor } from '../engine/transaction-action';

/**
 * `POST /v1/transactions/{id}/ratings`: once the transaction is COMPLETED, each party rates the other once
 * (docs/decisions.md §13). The rating, the rated user's running sum and count, the transaction's has_*_rated flag,
 * a log line and the event are one statement.
 */
export async function rateTransaction(
  db: Db,
  client: ClientRow,
  transactionId: string,
  actor: TransactionActor,
  body: { score: number; comment?: string },
  now: Date,
): Promise<TransactionWithMilestonesRecord> {
  return runTransactionAction(db, {
    client,
    transactionId,
    actor,
    now,
    act: async ({ tx, graph, role, last }) => {
      const t = graph.transaction;
      const decision = decideRating({ status: t.status as TransactionStatus, hasBuyerRated: t.hasBuyerRated, hasSellerRated: t.hasSellerRated }, role);
      if (!decision.ok) throw invalidState(decision.message);
      const rated = role === 'buyer' ? graph.seller.user : graph.buyer.user;
      const flag = role === 'buyer' ? { hasBuyerRated: true } : { hasSellerRated: true };
      const after: TransactionGraph = {
        ...graph,
        transaction: { ...t, ...flag, updatedAt: now },
        [role === 'buyer' ? 'seller' : 'buyer']: {
          ...graph[role === 'buyer' ? 'seller' : 'buyer'],
          user: { ...rated, ratingCount: rated.ratingCount + 1, ratingSum: rated.ratingSum + body.score },
        },
      };
      const record = transactionWithMilestonesRecord(after, now);
      const message = `The ${role} rated the ${role === 'buyer' ? 'seller' : 'buyer'} ${body.score} out of 5${body.comment ? `: "${body.comment}"` : ''}.`;
      const milestoneId = t.currentMilestoneId ?? graph.milestones[graph.milestones.length - 1]!.milestone.id;
      const event = eventWrites({
        clientId: client.id,
        type: 'transaction.rated',
        transactionId: t.id,
        data: { actor: role, automatic: false, message, score: body.score, comment: body.comment ?? null, transaction: record },
        now,
      });
      const at = now.toISOString();
      last(
        runAsOneStatement(tx, 'rate_transaction', [
          tx.insert(ratings).values({ id: uuidv7(), clientId: client.id, transactionId: t.id, raterRole: role, ratedUserId: rated.id, score: body.score, comment: body.comment ?? null, createdAt: now }),
          sql`update users set rating_count = rating_count + 1, rating_sum = rating_sum + ${body.score}::int, updated_at = ${at}::timestamptz where id = ${rated.id}::uuid`,
          sql`update transactions set ${sql.raw(role === 'buyer' ? 'has_buyer_rated' : 'has_seller_rated')} = true, updated_at = ${at}::timestamptz where id = ${t.id}::uuid`,
          tx.insert(milestoneLogs).values({ id: uuidv7(), milestoneId, actor: role, logMessage: message, isAutomatic: false, createdAt: now, updatedAt: now }),
          ...event.writes,
        ]),
      );
      return record;
    },
  });
}
