import 'server-only';
import type { CreateDisputeBody } from '@/lib/contracts/disputes';
import { addBusinessDays } from '@/lib/escrow/business-days';
import { MEDIATION_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import { transactionWithLastWrite } from '../db/transaction';
import type { ClientRow } from '../db/schema';
import { writeOpenedDispute } from '../engine/dispute-opening-writes';
import { assertActingParty } from '../engine/parties';
import { lockTransactionOfMilestone } from '../engine/transaction-lock';

/** A party opens the dispute: the seller by default, the buyer with opened_by (issue #25); both ids must be the transaction's. */
export async function createDispute(db: Db, client: ClientRow, body: CreateDisputeBody, now: Date, baseUrl: string) {
  return transactionWithLastWrite(db, async (tx, last) => {
    const graph = await lockTransactionOfMilestone(tx, client, body.milestone_id, now);
    await assertActingParty(tx, { clientId: client.id, role: 'seller', givenId: body.seller_id, expected: graph.seller.party, field: 'seller_id' });
    await assertActingParty(tx, { clientId: client.id, role: 'buyer', givenId: body.buyer_id, expected: graph.buyer.party, field: 'buyer_id' });
    const mediationEnd = addBusinessDays(now, MEDIATION_BUSINESS_DAYS, holidays());
    const { record, written } = writeOpenedDispute(tx, {
      client,
      graph,
      milestoneId: body.milestone_id,
      openedBy: body.opened_by,
      description: body.description,
      mediationEnd,
      now,
      baseUrl,
    });
    last(written);
    return record;
  });
}
