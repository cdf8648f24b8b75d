import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { clients } from '../db/schema';
import { startPoller } from '../background-poller';
import { env } from '../env';
import { settleDueDeadlines } from './settle';
import { queryRows } from '../db/rows';

/**
 * Finds transactions with a lapsed deadline (each client's test clock included) and settles them.
 * State, not memory, says what is due, so a restart loses nothing; the transaction row lock makes
 * each lapse act once even with several runners on one PostgreSQL. `wait: false` skips rows another
 * runner is already settling instead of queueing behind it.
 */
export async function runDueDeadlines(db: DbOrTx, opts: { wallNow: Date; clientId?: string; wait?: boolean; limit?: number }): Promise<number> {
  const wall = opts.wallNow.toISOString();
  const clientFilter = opts.clientId ? sql`and m.client_id = ${opts.clientId}` : sql``;
  const due = sql`(${wall}::timestamptz + c.clock_offset_ms * interval '1 millisecond')`;
  // One branch per kind of deadline, each served by a partial index of the rows waiting on one: the scan
  // runs every second and must not grow with every milestone ever made.
  const dueTransactions = await queryRows<{ transaction_id: string; client_id: string }>(db, sql`
    select transaction_id, client_id from (
      select m.transaction_id, m.client_id
      from milestones m join clients c on c.id = m.client_id
      where m.status = 'UNDER_INSPECTION' and m.inspection_end_date <= ${due} ${clientFilter}
      union
      select m.transaction_id, m.client_id
      from milestones m join clients c on c.id = m.client_id
      where m.status = 'DELIVERY_RETURNED_AWAITING_APPROVAL' and m.return_deadline_date <= ${due} ${clientFilter}
      union
      select m.transaction_id, m.client_id
      from disputes d join milestones m on m.id = d.milestone_id join clients c on c.id = m.client_id
      where d.status in ('INTRA_PARTY_MEDIATION', 'EVIDENCE_SUBMISSION')
        and ((d.status = 'INTRA_PARTY_MEDIATION' and d.intra_party_mediation_end_date <= ${due})
          or (d.status = 'EVIDENCE_SUBMISSION' and d.evidence_submission_end_date <= ${due})) ${clientFilter}
    ) due
    limit ${opts.limit ?? 200}`);
  let acted = 0;
  for (const row of dueTransactions) {
    acted += await db.transaction(async (tx) => {
      const lock = opts.wait === false ? sql`for update skip locked` : sql`for update`;
      const locked = await queryRows(tx, sql`select id from transactions where id = ${row.transaction_id} ${lock}`);
      if (locked.length === 0) return 0;
      const [client] = await tx.select().from(clients).where(eq(clients.id, row.client_id));
      if (!client) return 0;
      return settleDueDeadlines(tx, client, row.transaction_id, new Date(opts.wallNow.getTime() + client.clockOffsetMs));
    });
  }
  return acted;
}

/** Polls for lapsed deadlines in the background of this server process. */
export function startDeadlineRunner(db: Db): void {
  startPoller('deadline runner', env().ESCROW_DEADLINE_POLL_MS, async () => {
    const acted = await runDueDeadlines(db, { wallNow: new Date(), wait: false });
    if (acted > 0) console.log(JSON.stringify({ level: 'info', msg: 'deadlines settled', acted }));
  });
}
