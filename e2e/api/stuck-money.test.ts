/**
 * Money held with no way out (issue #25 item 4), over HTTP against a real server and database. After the
 * seller rejects a return either party opens the dispute, and if neither does within 3 business days the
 * service opens it; declined arbitration holds the funds 10 business days, in which the dispute team may
 * still decide, and then goes back to the buyer. The test clock moves time; after money moves, the wallets
 * and the ledger audit say where it went.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DisputeRecord, DisputeWithPartiesRecord, MilestoneWithLogsRecord } from '@/lib/contracts/records';
import { addBusinessDays } from '@/lib/escrow/business-days';
import { holidaySet, NIGERIAN_PUBLIC_HOLIDAYS } from '@/lib/escrow/nigerian-holidays';
import {
  advanceTo,
  call,
  expectError,
  expectLedgerBalanced,
  expectOk,
  newClient,
  newDeal,
  newUser,
  operatorKey,
  snapshot,
  walletBalance,
  type TestClient,
} from './support/api';
import { stageMilestone, type StagedMilestone } from './support/staging';

const MINUTE = 60_000;
const holidays = holidaySet(NIGERIAN_PUBLIC_HOLIDAYS);

async function milestoneOf(client: TestClient, id: string) {
  return MilestoneWithLogsRecord.parse(expectOk(await call('GET', `/v1/milestones/${id}`, { key: client.secretKey })));
}

async function disputeOf(client: TestClient, id: string) {
  return DisputeWithPartiesRecord.parse(expectOk(await call('GET', `/v1/dispute/${id}`, { key: client.secretKey })));
}

async function eventsOf(client: TestClient, s: StagedMilestone) {
  const data = expectOk(await call('GET', `/v1/events?transaction_id=${s.deal.transaction.id}&limit=100`, { key: client.secretKey }));
  return data.events as Array<{ type: string; dispute_id: string | null; data: { actor?: string; automatic?: boolean } }>;
}

const openBody = (s: StagedMilestone, openedBy?: 'buyer' | 'seller') => ({
  description: 'The seller refuses a return of damaged goods',
  buyer_id: s.deal.buyer.id,
  seller_id: s.deal.seller.id,
  milestone_id: s.milestoneId,
  ...(openedBy ? { opened_by: openedBy } : {}),
});

/** A staged dispute nobody gave evidence in, its evidence window lapsed: ARBITRATION_DECLINED. */
async function declined(client: TestClient) {
  const s = await stageMilestone(client, 'escalated');
  const escalated = await disputeOf(client, s.disputeId!);
  await advanceTo(client, escalated.evidence_submission_end_date!);
  const dispute = await disputeOf(client, s.disputeId!);
  expect(dispute.status).toBe('ARBITRATION_DECLINED');
  return { s, dispute, evidenceClosedAt: escalated.evidence_submission_end_date! };
}

describe('a rejected return: either party opens the dispute', () => {
  it('the buyer opens it (opened_by buyer); the wrong party is 403, an unknown milestone 404, the wrong state 409', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'returnRejected');
    const key = client.secretKey;
    const rejected = await milestoneOf(client, s.milestoneId);
    expect(rejected.allowed_actions).toEqual({ buyer: ['open_dispute'], seller: ['open_dispute', 'refund'] });
    const [deadline] = rejected.deadlines;
    expect(rejected.deadlines).toEqual([{ name: 'dispute_opening', due_at: deadline!.due_at, counted_in: 'business_days', on_lapse: 'dispute_opened' }]);
    const expectedDue = addBusinessDays(new Date(rejected.updated_at), 3, holidays);
    expect(Math.abs(Date.parse(deadline!.due_at) - expectedDue.getTime())).toBeLessThan(MINUTE);
    expect(rejected.milestone_logs.at(-1)!.log_message).toMatch(/Either party may open a dispute until/);

    const body = openBody(s, 'buyer');
    const stranger = await newUser(client, 'Stranger');
    const before = await snapshot(client, s.deal);
    expectError(await call('POST', '/v1/dispute/create', { key, body: { ...body, buyer_id: s.deal.seller.id } }), 403, 'WRONG_PARTY', /not the buyer/);
    expectError(await call('POST', '/v1/dispute/create', { key, body: { ...body, buyer_id: stranger.id } }), 403, 'WRONG_PARTY', /not the buyer/);
    expectError(await call('POST', '/v1/dispute/create', { key, body: { ...body, seller_id: s.deal.buyer.id } }), 403, 'WRONG_PARTY', /not the seller/);
    expectError(await call('POST', '/v1/dispute/create', { key, body: { ...body, milestone_id: randomUUID() } }), 404, 'NOT_FOUND');
    // Only a party opens one by request; the service's own opening is the lapse's.
    expectError(await call('POST', '/v1/dispute/create', { key, body: { ...body, opened_by: 'system' } }), 400, 'VALIDATION_ERROR');
    expect(await snapshot(client, s.deal)).toBe(before);

    const fresh = await newDeal(client, [5_000], { walletFunds: 5_000 });
    const pending = { ...body, buyer_id: fresh.buyer.id, seller_id: fresh.seller.id, milestone_id: fresh.milestoneIds[0] };
    expectError(await call('POST', '/v1/dispute/create', { key, body: pending }), 409, 'INVALID_STATE', /PENDING_FUNDING/);

    const res = await call('POST', '/v1/dispute/create', { key, body });
    expect(res.status).toBe(200);
    const dispute = DisputeRecord.parse(expectOk(res));
    expect(dispute).toMatchObject({ opened_by: 'buyer', status: 'INTRA_PARTY_MEDIATION', milestone_id: s.milestoneId, description: body.description });
    expect(dispute.allowed_actions).toEqual({ buyer: ['counter_offer', 'escalate'], seller: ['add_dispute_amount', 'escalate', 'cancel'] });

    const disputed = await milestoneOf(client, s.milestoneId);
    expect(disputed).toMatchObject({ status: 'IN_DISPUTE', deadlines: [], allowed_actions: { buyer: [], seller: ['refund'] } });
    expect(disputed.milestone_logs.at(-1)).toMatchObject({ actor: 'buyer', is_automatic: false, log_message: expect.stringMatching(new RegExp(`^Buyer opened dispute ${dispute.dispute_code}`)) });
    const created = (await eventsOf(client, s)).at(-1)!;
    expect(created).toMatchObject({ type: 'dispute.created', dispute_id: dispute.id, data: { actor: 'buyer', automatic: false } });
    expect((await disputeOf(client, dispute.id)).opened_by).toBe('buyer');

    expectError(await call('POST', '/v1/dispute/create', { key, body }), 409, 'INVALID_STATE', /IN_DISPUTE/);
    expectError(await call('POST', '/v1/dispute/create', { key, body: openBody(s) }), 409, 'INVALID_STATE', /IN_DISPUTE/);
  });

  it('the seller still opens it without opened_by, as before', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'returnRejected');
    const dispute = DisputeRecord.parse(expectOk(await call('POST', '/v1/dispute/create', { key: client.secretKey, body: openBody(s) })));
    expect(dispute.opened_by).toBe('seller');
    expect((await milestoneOf(client, s.milestoneId)).milestone_logs.at(-1)).toMatchObject({ actor: 'seller', is_automatic: false });
  });
});

describe('a rejected return nobody disputes', () => {
  it('past the dispute_opening deadline the service opens the dispute: opened_by system, logged as automatic, dispute.created', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'returnRejected');
    const due = (await milestoneOf(client, s.milestoneId)).deadlines[0]!.due_at;

    expect((await advanceTo(client, due, -MINUTE)).settled).toBe(0);
    expect((await milestoneOf(client, s.milestoneId)).status).toBe('DELIVERY_RETURN_REJECTED');
    expect((await advanceTo(client, due)).settled).toBe(1);

    const list = expectOk(await call('GET', `/v1/dispute?milestone_id=${s.milestoneId}`, { key: client.secretKey }));
    expect(list.disputes).toHaveLength(1);
    const dispute = DisputeRecord.parse(list.disputes[0]);
    expect(dispute).toMatchObject({ opened_by: 'system', status: 'INTRA_PARTY_MEDIATION', description: expect.stringMatching(/neither party opened a dispute within 3 business days/) });
    // Mediation runs from when the deadline passed, as every lapse counts from its instant.
    expect(dispute.intra_party_mediation_end_date).toBe(addBusinessDays(new Date(due), 3, holidays).toISOString());

    const milestone = await milestoneOf(client, s.milestoneId);
    expect(milestone).toMatchObject({ status: 'IN_DISPUTE', deadlines: [] });
    expect(milestone.transaction.status).toBe('MILESTONE_IN_DISPUTE');
    expect(milestone.milestone_logs.at(-1)).toMatchObject({
      actor: 'system',
      is_automatic: true,
      log_message: expect.stringMatching(new RegExp(`the service opened dispute ${dispute.dispute_code}`)),
    });
    expect((await eventsOf(client, s)).at(-1)).toMatchObject({ type: 'dispute.created', dispute_id: dispute.id, data: { actor: 'system', automatic: true } });

    // The parties then work it like any other dispute; nobody opens a second one.
    expectError(await call('POST', '/v1/dispute/create', { key: client.secretKey, body: openBody(s, 'buyer') }), 409, 'INVALID_STATE', /IN_DISPUTE/);
    const proposed = expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key: client.secretKey, body: { dispute_amount: 300, seller_id: s.deal.seller.id } }));
    expect(proposed).toMatchObject({ opened_by: 'system', dispute_amount_status: 'SUBMITTED' });
  });

  it('a clock moved weeks ahead runs the whole course: opened, escalated, declined, and the buyer refunded', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'returnRejected');
    const buyerBefore = await walletBalance(client, s.deal.buyer.id);
    const held = (await milestoneOf(client, s.milestoneId)).milestone_escrow.balance;

    const moved = expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { days: 40 } }));
    expect(moved.settled).toBe(4);
    const [opened] = expectOk(await call('GET', `/v1/dispute?milestone_id=${s.milestoneId}`, { key: client.secretKey })).disputes;
    expect(opened).toMatchObject({ opened_by: 'system', status: 'RESOLVED', resolution: 'declined_refund', escalated_by: 'system' });
    const course = (await eventsOf(client, s)).map((e) => e.type).filter((type) => !type.startsWith('deadline.'));
    expect(course.slice(-4)).toEqual(['dispute.created', 'dispute.escalated', 'dispute.arbitration_declined', 'dispute.resolved']);
    expect(await walletBalance(client, s.deal.buyer.id)).toBe(buyerBefore + held);
    await expectLedgerBalanced();
  });
});

describe('declined arbitration', () => {
  it('shows the declined_refund deadline, 10 business days after the window closed; the dispute team may still decide it', async () => {
    const client = await newClient();
    const { s, dispute, evidenceClosedAt } = await declined(client);
    const refundDue = addBusinessDays(new Date(evidenceClosedAt), 10, holidays).toISOString();
    expect(dispute.deadlines).toEqual([{ name: 'declined_refund', due_at: refundDue, counted_in: 'business_days', on_lapse: 'refunded_to_buyer' }]);
    expect(dispute.milestone.milestone_logs.at(-1)!.log_message).toMatch(/unless the dispute team decides first, everything then goes back to the buyer/);

    const queue = expectOk(await call('GET', `/v1/operator/disputes?awaiting_verdict=true&client_id=${client.id}&limit=100`, { key: operatorKey() }));
    expect(queue.disputes.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([[dispute.id, 'ARBITRATION_DECLINED']]);
    const arbitrationOnly = expectOk(await call('GET', `/v1/operator/disputes?status=ARBITRATION&client_id=${client.id}&limit=100`, { key: operatorKey() }));
    expect(arbitrationOnly.disputes).toEqual([]);

    const buyerBefore = await walletBalance(client, s.deal.buyer.id);
    const held = dispute.milestone.milestone_escrow.balance;
    const sellerShare = Math.min(400, dispute.max_dispute_amount);
    const resolved = DisputeWithPartiesRecord.parse(
      expectOk(await call('POST', `/v1/operator/disputes/${dispute.id}/verdict`, { key: operatorKey(), body: { seller_amount: sellerShare, reason: 'Half the batch was fine' } })),
    );
    expect(resolved).toMatchObject({ status: 'RESOLVED', resolution: 'verdict', verdict_seller_amount: sellerShare, deadlines: [] });
    expect(resolved.milestone).toMatchObject({ status: 'DISPUTE_RESOLVED', milestone_escrow: { balance: 0 } });
    expect(await walletBalance(client, s.deal.buyer.id)).toBe(buyerBefore + held - sellerShare);

    // The deadline stopped with the verdict: passing it moves nothing more.
    expect((await advanceTo(client, refundDue)).settled).toBe(0);
    expect((await disputeOf(client, dispute.id)).resolution).toBe('verdict');
    expectError(await call('POST', `/v1/operator/disputes/${dispute.id}/verdict`, { key: operatorKey(), body: { seller_amount: 1, reason: 'again' } }), 409, 'INVALID_STATE');
    await expectLedgerBalanced();
  });

  it('left alone past its deadline, everything held goes back to the buyer: RESOLVED, logged as automatic, dispute.resolved', async () => {
    const client = await newClient();
    const { s, dispute } = await declined(client);
    const due = dispute.deadlines[0]!.due_at;
    const buyerBefore = await walletBalance(client, s.deal.buyer.id);
    const sellerBefore = await walletBalance(client, s.deal.seller.id);
    const held = dispute.milestone.milestone_escrow.balance;
    expect(held).toBeGreaterThan(0);

    expect((await advanceTo(client, due, -MINUTE)).settled).toBe(0);
    expect((await disputeOf(client, dispute.id)).status).toBe('ARBITRATION_DECLINED');
    expect((await advanceTo(client, due)).settled).toBe(1);

    const refunded = await disputeOf(client, dispute.id);
    expect(refunded).toMatchObject({ status: 'RESOLVED', resolution: 'declined_refund', deadlines: [], allowed_actions: { buyer: [], seller: [] } });
    expect(refunded.resolved_at).not.toBeNull();
    expect(refunded.milestone).toMatchObject({ status: 'DISPUTE_RESOLVED', milestone_escrow: { balance: 0 } });
    expect(refunded.milestone.milestone_logs.at(-1)).toMatchObject({ actor: 'system', is_automatic: true, log_message: expect.stringMatching(/everything held went back to the buyer/) });
    expect(await walletBalance(client, s.deal.buyer.id)).toBe(buyerBefore + held);
    expect(await walletBalance(client, s.deal.seller.id)).toBe(sellerBefore);
    expect((await eventsOf(client, s)).at(-1)).toMatchObject({ type: 'dispute.resolved', dispute_id: dispute.id, data: { actor: 'system', automatic: true } });

    expectError(await call('POST', `/v1/operator/disputes/${dispute.id}/verdict`, { key: operatorKey(), body: { seller_amount: 1, reason: 'too late' } }), 409, 'INVALID_STATE');
    await expectLedgerBalanced();
  });
});
