import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { disputes, milestones } from '../db/schema';

/**
 * SQL that is true when a deadline of the transaction has passed by `at` (decisions §5, §6): an
 * inspection or a return left unanswered, a mediation or an evidence window ended. The one statement
 * of the condition that settleDueDeadlines acts on, for every query that must ask it.
 */
export function dueDeadlineCondition(transactionId: SQL, at: SQL): SQL {
  return sql`(
    exists (
      select 1 from ${milestones}
      where ${milestones.transactionId} = ${transactionId}
        and ((${milestones.status} = 'UNDER_INSPECTION' and ${milestones.inspectionEndDate} <= ${at})
          or (${milestones.status} = 'DELIVERY_RETURNED_AWAITING_APPROVAL' and ${milestones.returnDeadlineDate} <= ${at}))
    )
    or exists (
      select 1 from ${disputes} join ${milestones} on ${milestones.id} = ${disputes.milestoneId}
      where ${milestones.transactionId} = ${transactionId}
        and ((${disputes.status} = 'INTRA_PARTY_MEDIATION' and ${disputes.intraPartyMediationEndDate} <= ${at})
          or (${disputes.status} = 'EVIDENCE_SUBMISSION' and ${disputes.evidenceSubmissionEndDate} <= ${at}))
    )
  )`;
}
