import 'server-only';
import type { PartyRole } from '@/lib/escrow/milestone-machine';
import type { Db } from '../db/client';
import { transactionWithLastWrite } from '../db/transaction';
import type { ClientRow } from '../db/schema';
import type { TransactionGraph } from '../records/transaction-graph/queries';
import { assertActingParty } from './parties';
import type { PartialOutcomeFrame } from './partial-outcome-writes';
import { lockTransactionOfMilestone } from './transaction-lock';

/**
 * The frame of a party's partial-outcome step, in one database transaction: lock the transaction (settling
 * lapsed deadlines) → unknown id (404) → wrong party (403) → the rules (400, 409) → the write.
 */
export async function runPartialOutcomeStep(
  db: Db,
  a: { client: ClientRow; milestoneId: string; role: PartyRole; actingId: string; now: Date; write: (frame: PartialOutcomeFrame) => Promise<TransactionGraph> },
): Promise<TransactionGraph> {
  return transactionWithLastWrite(db, async (tx, last) => {
    const graph = await lockTransactionOfMilestone(tx, a.client, a.milestoneId, a.now);
    await assertActingParty(tx, { clientId: a.client.id, role: a.role, givenId: a.actingId, expected: graph[a.role].party, field: `${a.role}_id` });
    return a.write({ tx, client: a.client, graph, milestoneId: a.milestoneId, now: a.now, last });
  });
}
