import { describe, expect, it } from 'vitest';
import { DisputeRecord, DisputeWithPartiesRecord } from '@/lib/contracts/records';
import { addBusinessDays } from '@/lib/escrow/business-days';
import { holidaySet, NIGERIAN_PUBLIC_HOLIDAYS } from '@/lib/escrow/nigerian-holidays';
import {
  call,
  expectError,
  expectLedgerBalanced,
  expectOk,
  newClient,
  newDeal,
  snapshot,
  walletBalance,
} from './support/api';
import { openDispute, returnRejectedDeal } from './support/staging';

describe('opening a dispute', () => {
  it('starts intra-party mediation for 3 business days with the flat dispute shape', async () => {
    const client = await newClient();
    const deal = await returnRejectedDeal(client);
    const before = new Date();
    const dispute = DisputeRecord.parse(await openDispute(client, deal));
    expect(dispute).toMatchObject({
      status: 'INTRA_PARTY_MEDIATION',
      dispute_amount_status: 'PENDING',
      dispute_amount: 0,
      is_buyer_evidence_submitted: false,
      is_seller_evidence_submitted: false,
      evidence_submission_end_date: null,
      buyer_id: deal.transaction.buyer.id,
      seller_id: deal.transaction.seller.id,
      milestone_id: deal.milestoneId,
      created_by: client.id,
      max_dispute_amount: 100_000,
      proposals: [],
    });
    expect(dispute.dispute_code).toMatch(/^DSP_[A-Z0-9]{10}$/);
    const expectedEnd = addBusinessDays(before, 3, holidaySet(NIGERIAN_PUBLIC_HOLIDAYS)).getTime();
    expect(Math.abs(Date.parse(dispute.intra_party_mediation_end_date) - expectedEnd)).toBeLessThan(60_000);
    expect(dispute.deadlines).toEqual([
      { name: 'intra_party_mediation', due_at: dispute.intra_party_mediation_end_date, counted_in: 'business_days', on_lapse: 'escalated_to_evidence_submission' },
    ]);
    expect(dispute.allowed_actions).toEqual({ buyer: ['counter_offer', 'escalate'], seller: ['add_dispute_amount', 'escalate', 'cancel'] });

    const milestone = expectOk(await call('GET', `/v1/milestones/${deal.milestoneId}`, { key: client.secretKey }));
    expect(milestone).toMatchObject({ status: 'IN_DISPUTE', is_return_rejected: true, milestone_escrow: { balance: 100_000 } });
    expect(milestone.transaction.status).toBe('MILESTONE_IN_DISPUTE');
    expect(milestone.milestone_logs.at(-1).log_message).toMatch(new RegExp(`opened dispute ${dispute.dispute_code}`));
  });

  it('refuses a party named in the other’s field, a second dispute, and a milestone whose return was not rejected', async () => {
    const client = await newClient();
    const deal = await returnRejectedDeal(client);
    const body = { description: 'x', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: deal.milestoneId };
    const before = await snapshot(client, deal);
    expectError(await call('POST', '/v1/dispute/create', { key: client.secretKey, body: { ...body, seller_id: deal.buyer.id } }), 403, 'WRONG_PARTY');
    expectError(await call('POST', '/v1/dispute/create', { key: client.secretKey, body: { ...body, buyer_id: deal.seller.id } }), 403, 'WRONG_PARTY');
    expectError(await call('POST', '/v1/dispute/create', { key: client.secretKey, body: { ...body, milestone_id: '0b6f5d0e-8c1a-4c55-9f3e-2b8f5b6c7d8e' } }), 404, 'NOT_FOUND');
    expectError(await call('POST', '/v1/dispute/create', { key: client.secretKey, body: { description: 'x' } }), 400, 'VALIDATION_ERROR');
    expect(await snapshot(client, deal)).toBe(before);

    await openDispute(client, deal);
    expectError(await call('POST', '/v1/dispute/create', { key: client.secretKey, body }), 409, 'INVALID_STATE', /IN_DISPUTE/);

    const fresh = await newDeal(client, [5_000], { walletFunds: 5_000 });
    expectError(
      await call('POST', '/v1/dispute/create', { key: client.secretKey, body: { ...body, buyer_id: fresh.buyer.id, seller_id: fresh.seller.id, milestone_id: fresh.milestoneIds[0] } }),
      409,
      'INVALID_STATE',
      /PENDING_FUNDING/,
    );
  });
});

describe('mediation', () => {
  it('propose → reject with reason → revise → approve splits the escrow and resolves the dispute', async () => {
    const client = await newClient();
    const deal = await returnRejectedDeal(client);
    const dispute = await openDispute(client, deal);
    const key = client.secretKey;

    const proposed = DisputeWithPartiesRecord.parse(
      expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 80_000, seller_id: deal.seller.id } })),
    );
    expect(proposed).toMatchObject({ dispute_amount_status: 'SUBMITTED', dispute_amount: 80_000, status: 'INTRA_PARTY_MEDIATION' });
    expect(proposed.buyer.user.id).toBe(deal.buyer.id);
    expect(proposed.milestone.transaction.id).toBe(deal.transaction.id);
    expect(proposed.allowed_actions).toEqual({ buyer: ['approve_dispute_amount', 'reject_dispute_amount', 'counter_offer', 'escalate'], seller: ['add_dispute_amount', 'escalate', 'cancel'] });
    expect(proposed.milestone.milestone_logs.at(-1)?.log_message).toMatch(/proposed ₦80,000\.00.*buyer has been notified/);

    const rejected = DisputeWithPartiesRecord.parse(
      expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/reject-dispute-amount`, { key, body: { buyer_id: deal.buyer.id, reason: 'Too high for leaking goods' } })),
    );
    expect(rejected.dispute_amount_status).toBe('PENDING');
    expect(rejected.proposals).toMatchObject([{ amount: 80_000, status: 'REJECTED', rejection_reason: 'Too high for leaking goods', proposed_by: 'seller' }]);
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { key, body: { buyer_id: deal.buyer.id } }), 409, 'INVALID_STATE', /PENDING/);

    expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 60_000, seller_id: deal.seller.id } }));
    const approved = DisputeWithPartiesRecord.parse(
      expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { key, body: { buyer_id: deal.buyer.id } })),
    );
    expect(approved).toMatchObject({ status: 'RESOLVED', dispute_amount_status: 'APPROVED', dispute_amount: 60_000, deadlines: [] });
    expect(approved.proposals.map((p) => [p.amount, p.status])).toEqual([
      [80_000, 'REJECTED'],
      [60_000, 'APPROVED'],
    ]);
    expect(approved.milestone).toMatchObject({ status: 'DISPUTE_RESOLVED', milestone_escrow: { balance: 0 } });
    expect(approved.milestone.transaction.status).toBe('COMPLETED');
    // ₦60,000 to the seller less its pro-rata fee (1% of 60,000 = ₦600), ₦40,000 back to the buyer.
    expect(await walletBalance(client, deal.seller.id)).toBe(59_400);
    expect(await walletBalance(client, deal.buyer.id)).toBe(40_000);
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 1, seller_id: deal.seller.id } }), 409, 'INVALID_STATE', /RESOLVED/);
    await expectLedgerBalanced();
  });

  it('refuses amounts outside 0..held, the wrong party, and unknown or foreign disputes, changing nothing', async () => {
    const client = await newClient();
    const other = await newClient();
    const deal = await returnRejectedDeal(client);
    const dispute = await openDispute(client, deal);
    const key = client.secretKey;
    const before = await snapshot(client, deal);
    const tooMuch = expectError(
      await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 100_000.01, seller_id: deal.seller.id } }),
      400,
      'DISPUTE_AMOUNT_OUT_OF_RANGE',
    );
    expect(tooMuch.message).toContain('between ₦0.00 and ₦100,000.00');
    for (const amount of [-1, 0.001, '50000', null]) {
      expectError(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: amount, seller_id: deal.seller.id } }), 400, 'VALIDATION_ERROR');
    }
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 10, seller_id: deal.buyer.id } }), 403, 'WRONG_PARTY');
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/reject-dispute-amount`, { key, body: { buyer_id: deal.seller.id } }), 403, 'WRONG_PARTY');
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { key, body: { buyer_id: deal.buyer.id } }), 409, 'INVALID_STATE');
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key: other.secretKey, body: { dispute_amount: 10, seller_id: deal.seller.id } }), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/dispute/${dispute.id}`, { key: other.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `/v1/dispute/not-a-uuid/add-dispute-amount`, { key, body: { dispute_amount: 10, seller_id: deal.seller.id } }), 400, 'VALIDATION_ERROR');
    expect(await snapshot(client, deal)).toBe(before);
    // Zero is a valid proposal: the seller may concede everything.
    expect(expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 0, seller_id: deal.seller.id } })).dispute_amount).toBe(0);
  });

  it('caps the proposal at the transaction amount when the escrow holds more (BUYER_100 prepaid fee is not disputable)', async () => {
    const client = await newClient();
    const deal = await returnRejectedDeal(client, [10_000], { walletFunds: 20_000, commission_payer: 'BUYER_100' });
    const key = client.secretKey;
    const dispute = await openDispute(client, deal);
    expect(dispute.max_dispute_amount).toBe(10_000);
    expectError(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 10_050, seller_id: deal.seller.id } }), 400, 'DISPUTE_AMOUNT_OUT_OF_RANGE');
    expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { dispute_amount: 10_000, seller_id: deal.seller.id } }));
    expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { key, body: { buyer_id: deal.buyer.id } }));
    expect(await walletBalance(client, deal.seller.id)).toBe(10_000);
    expect(await walletBalance(client, deal.buyer.id)).toBe(20_000 - 10_100);
    await expectLedgerBalanced();
  });
});

describe('reading disputes', () => {
  it('lists by milestone and status, paginated, only this client', async () => {
    const client = await newClient();
    const deal = await returnRejectedDeal(client);
    const dispute = await openDispute(client, deal);
    const list = expectOk(await call('GET', `/v1/dispute?milestone_id=${deal.milestoneId}`, { key: client.secretKey }));
    expect(list.disputes.map((d: { id: string }) => d.id)).toEqual([dispute.id]);
    expect(list.pagination).toMatchObject({ total: 1, page: 1, limit: 20, hasNextPage: false });
    expect(expectOk(await call('GET', '/v1/dispute?status=RESOLVED', { key: client.secretKey })).disputes).toEqual([]);
    expectError(await call('GET', '/v1/dispute?status=SETTLED', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
    const other = await newClient();
    expect(expectOk(await call('GET', '/v1/dispute', { key: other.secretKey })).disputes).toEqual([]);
    const full = DisputeWithPartiesRecord.parse(expectOk(await call('GET', `/v1/dispute/${dispute.id}`, { key: client.secretKey })));
    expect(full.milestone.milestone_logs.length).toBeGreaterThanOrEqual(6);
  });
});
