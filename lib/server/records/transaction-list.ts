import 'server-only';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { columnsAsJson, rowFromJson } from '../db/rows';
import { disputes, milestones, parties, users } from '../db/schema';
import { TURN_DISPUTE_KEYS, type TurnDisputeRow } from './disputes';
import type { PartyWithUser } from './people';
import type { MilestoneRow } from './transaction-graph/queries';

/** A milestone's columns that the steps it is owed and its deadlines read (present.ts transactionTurns), its title and whose it is. */
const TURN_MILESTONE_KEYS = [
  'id',
  'transactionId',
  'title',
  'status',
  'position',
  'dueDate',
  'extensions',
  'partialAcceptance',
  'inspectionEndDate',
  'returnDeadlineDate',
  'extensionResponseDueAt',
  'disputeOpeningDueAt',
  'partialAcceptanceResponseDueAt',
] as const;

export type TurnMilestoneRow = Pick<MilestoneRow, (typeof TURN_MILESTONE_KEYS)[number]>;
/** A milestone of a listed transaction as whose-turn reads it, with its dispute when it is in one (only an open dispute takes turns). */
export type ListedMilestone = { milestone: TurnMilestoneRow; dispute: TurnDisputeRow | null };

// Rows as JSON arrays: a narrow read of many rows costs less so (db/rows.ts columnsAsJson says why).
const turnMilestoneJson = columnsAsJson(milestones, 'm', TURN_MILESTONE_KEYS);
const turnDisputeJson = columnsAsJson(disputes, 'd', TURN_DISPUTE_KEYS);

/**
 * What a page of this client's transactions shows besides its rows, in one statement: the parties with their users,
 * and the milestones in position order with the disputes of those in dispute.
 */
export async function loadListedTransactionsExtras(
  db: DbOrTx,
  clientId: string,
  transactionIds: string[],
  partyIds: string[],
): Promise<{ people: Map<string, PartyWithUser>; milestones: ListedMilestone[] }> {
  if (transactionIds.length === 0) return { people: new Map(), milestones: [] };
  const [row] = await db
    .select({
      people: sql<[unknown, unknown][] | null>`(
        select json_agg(json_build_array(to_jsonb(p), (select to_jsonb(u) from users u where u.id = p.user_id)))
          from parties p where p.id = any(${sql.param([...new Set(partyIds)])}::uuid[]))`,
      milestones: sql<[unknown, unknown][] | null>`(
        select json_agg(json_build_array(${turnMilestoneJson.sql}, case when d.id is null then null else ${turnDisputeJson.sql} end)
                        order by m.transaction_id, m.position_in_transaction)
          from milestones m left join disputes d on m.status = 'IN_DISPUTE' and d.milestone_id = m.id
         where m.transaction_id = any(${sql.param(transactionIds)}::uuid[]) and m.client_id = ${clientId})`,
    })
    .from(sql`(values (1)) as one_row`)
    .prepare('listed_transactions_extras')
    .execute();
  const people = (row?.people ?? []).map(([party, user]) => ({ party: rowFromJson(parties, party), user: rowFromJson(users, user) }));
  return {
    people: new Map(people.map((p) => [p.party.id, p])),
    milestones: (row?.milestones ?? []).map(([milestone, dispute]) => ({
      milestone: turnMilestoneJson.decode(milestone),
      dispute: dispute === null ? null : turnDisputeJson.decode(dispute),
    })),
  };
}
