import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import type { PartyRole } from '@/lib/escrow/milestone-machine';
import type { Db, Tx } from '../db/client';
import { milestones, type ClientRow } from '../db/schema';
import { transactionWithLastWrite } from '../db/transaction';
import { notFound } from '../app-error';
import type { TransactionGraph } from '../records/transaction-graph/queries';
import { assertActingParty } from './parties';
import { lockTransactionOfMilestone } from './transaction-lock';

export type TransactionActor = { role: PartyRole; id: string };

export type TransactionContext = {
  tx: Tx;
  client: ClientRow;
  /** The transaction as locked, its lapsed deadlines settled. */
  graph: TransactionGraph;
  now: Date;
  role: PartyRole;
  /** Hands over the operation's last write, to go out with the COMMIT (transactionWithLastWrite). */
  last: (write: Promise<unknown>) => void;
};

/**
 * The frame of every operation on a transaction as a whole (cancel, terminate, rate), in one database
 * transaction: lock the transaction (settling lapsed deadlines) → unknown id (404) → wrong party (403) →
 * `act` (its rules, 409, and its write). Transactions are locked through their first milestone, the lock
 * every milestone and dispute writer takes, so such an operation and a step of the same transaction queue
 * behind each other.
 */
export async function runTransactionAction<T>(
  db: Db,
  a: { client: ClientRow; transactionId: string; actor: TransactionActor; now: Date; act: (ctx: TransactionContext) => Promise<T> },
): Promise<T> {
  return transactionWithLastWrite(db, async (tx, last) => {
    const [first] = await tx
      .select({ id: milestones.id })
      .from(milestones)
      .where(and(eq(milestones.transactionId, a.transactionId), eq(milestones.clientId, a.client.id)))
      .orderBy(asc(milestones.position))
      .limit(1)
      .prepare('first_milestone_of_transaction')
      .execute();
    if (!first) throw notFound('Transaction', a.transactionId);
    const graph = await lockTransactionOfMilestone(tx, a.client, first.id, a.now);
    const role = a.actor.role;
    await assertActingParty(tx, { clientId: a.client.id, role, givenId: a.actor.id, expected: graph[role].party, field: `${role}_id` });
    return a.act({ tx, client: a.client, graph, now: a.now, role, last });
  });
}
