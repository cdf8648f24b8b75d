import 'server-only';
import { ACTING_PARTY, type OnePartyMilestoneAction } from '@/lib/escrow/milestone-machine';
import type { Db } from '../db/client';
import { transactionWithLastWrite } from '../db/transaction';
import type { ClientRow } from '../db/schema';
import type { TransactionGraph } from '../records/transaction-graph/queries';
import { applyMilestoneAction, type ActionContext, type MilestoneActionEffect } from './milestone-action';
import { assertActingParty } from './parties';
import type { MilestoneAccount } from './post-transfer';
import { lockMilestoneAndAccounts } from './transaction-lock';

/**
 * The shape every milestone operation of a party shares, in one database transaction: lock (settling
 * lapsed deadlines) → unknown id (404) → wrong party (403) → wrong state (409) → apply and write
 * (applyMilestoneAction).
 */
export async function runMilestoneAction(
  db: Db,
  a: {
    client: ClientRow;
    milestoneId: string;
    action: OnePartyMilestoneAction;
    actingId: string;
    now: Date;
    /**
     * The milestone's accounts the action's transfer moves, locked with the transaction (one round trip
     * fewer); any other account of the transfer is locked before its write, as without this.
     */
    moves?: readonly MilestoneAccount[];
    apply: (ctx: ActionContext) => Promise<MilestoneActionEffect>;
  },
): Promise<TransactionGraph> {
  return transactionWithLastWrite(db, async (tx, last) => {
    const { graph, balances } = await lockMilestoneAndAccounts(tx, a.client, a.milestoneId, a.now, a.moves ?? []);
    const role = ACTING_PARTY[a.action];
    await assertActingParty(tx, { clientId: a.client.id, role, givenId: a.actingId, expected: graph[role].party, field: `${role}_id` });
    // The step is the operation's last write: it goes out with the COMMIT.
    return applyMilestoneAction(tx, { client: a.client, graph, balances, milestoneId: a.milestoneId, action: a.action, role, now: a.now, apply: a.apply }, last);
  });
}
