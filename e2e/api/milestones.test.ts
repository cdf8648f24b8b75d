import { describe, expect, it } from 'vitest';
import { MilestoneRecord, MilestoneWithLogsRecord } from '@/lib/contracts/records';
import {
  call,
  expectError,
  expectLedgerBalanced,
  expectOk,
  newClient,
  newDeal,
  newUser,
  snapshot,
  uploadProof,
  walletBalance,
  type TestClient,
} from './support/api';

const DAY = 86_400_000;

async function fundedDeal(client: TestClient, amounts = [100_000], opts: { commission_payer?: string } = {}) {
  const deal = await newDeal(client, amounts, { walletFunds: amounts.reduce((a, b) => a + b, 0) * 2, ...opts });
  const funded = expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
  return { ...deal, funded };
}

async function deliveredDeal(client: TestClient, amounts = [100_000]) {
  const deal = await fundedDeal(client, amounts);
  const proof = await uploadProof(client);
  const delivered = expectOk(
    await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }),
  );
  return { ...deal, proof, delivered };
}

describe('fund → deliver → approve', () => {
  it('moves the money from the buyer through escrow to the seller less the 1% fee, with the spec shape at every step', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [100_000], { walletFunds: 150_000 });
    const milestoneId = deal.milestoneIds[0]!;

    const funded = MilestoneRecord.parse(
      expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } })),
    );
    expect(funded).toMatchObject({ status: 'IN_PROGRESS', is_milestone_funded: true, milestone_fee: 1_000, milestone_escrow: { balance: 100_000 } });
    expect(funded.allowed_actions).toEqual({ buyer: [], seller: ['deliver', 'request_extension', 'refund'] });
    expect(funded.transaction).toMatchObject({ status: 'MILESTONE_IN_PROGRESS', total_amount_funded: 100_000 });
    expect(funded.transaction.buyer.user.id).toBe(deal.buyer.id);
    expect(funded.transaction.seller.organisation.wallet_id).toBeTruthy();
    expect(await walletBalance(client, deal.buyer.id)).toBe(50_000);

    const proof = await uploadProof(client);
    const before = Date.now();
    const delivered = MilestoneRecord.parse(
      expectOk(
        await call('POST', `/v1/milestones/${milestoneId}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }),
      ),
    );
    expect(delivered).toMatchObject({ status: 'UNDER_INSPECTION', is_delivered: true, proofs_of_completion: [proof], milestone_escrow: { balance: 100_000 } });
    const inspectionEnd = Date.parse(delivered.inspection_end_date!);
    expect(inspectionEnd - before).toBeGreaterThanOrEqual(3 * DAY - 5_000);
    expect(inspectionEnd - before).toBeLessThanOrEqual(3 * DAY + 60_000);
    expect(delivered.deadlines).toEqual([{ name: 'inspection', due_at: delivered.inspection_end_date, counted_in: 'calendar_days', on_lapse: 'delivery_accepted' }]);
    expect(delivered.allowed_actions).toEqual({ buyer: ['approve', 'reject', 'propose_partial_acceptance'], seller: ['refund'] });
    expect(delivered.transaction.status).toBe('MILESTONE_UNDER_INSPECTION');

    const approved = MilestoneRecord.parse(
      expectOk(await call('POST', `/v1/milestones/${milestoneId}/approve`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } })),
    );
    expect(approved).toMatchObject({ status: 'COMPLETED', is_completed: true, milestone_escrow: { balance: 0 }, deadlines: [] });
    expect(approved.allowed_actions).toEqual({ buyer: [], seller: [] });
    expect(approved.transaction).toMatchObject({ status: 'COMPLETED', is_completed: true, total_amount_disbursed: 99_000 });
    expect(await walletBalance(client, deal.seller.id)).toBe(99_000);
    expect(await walletBalance(client, deal.buyer.id)).toBe(50_000);

    const withLogs = MilestoneWithLogsRecord.parse(expectOk(await call('GET', `/v1/milestones/${milestoneId}`, { key: client.secretKey })));
    const messages = withLogs.milestone_logs.map((l) => l.log_message);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toMatch(/created/i);
    expect(messages[1]).toMatch(/funded/i);
    expect(messages[2]).toMatch(/inspection started/i);
    expect(messages[3]).toMatch(/₦99,000\.00 released to the seller \(fee ₦1,000\.00\)/);
    await expectLedgerBalanced();
  });

  it('with BUYER_100 the buyer funds amount plus fee and the seller receives the whole amount', async () => {
    const client = await newClient();
    const deal = await fundedDeal(client, [50_000], { commission_payer: 'BUYER_100' });
    expect(deal.funded.milestone_escrow.balance).toBe(50_500);
    expect(await walletBalance(client, deal.buyer.id)).toBe(100_000 - 50_500);
    const proof = await uploadProof(client);
    expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: proof } }));
    expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/approve`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    expect(await walletBalance(client, deal.seller.id)).toBe(50_000);
  });

  it('accepts party ids as well as user ids for the acting party', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1_000], { walletFunds: 1_000 });
    const buyerPartyId = deal.transaction.buyer.id;
    expect(buyerPartyId).not.toBe(deal.buyer.id);
    const funded = expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: buyerPartyId } }));
    expect(funded.status).toBe('IN_PROGRESS');
  });
});

describe('reject → return approved or rejected', () => {
  it('the buyer rejects with proof of return; the seller approves the return and the buyer is refunded in full', async () => {
    const client = await newClient();
    const deal = await deliveredDeal(client);
    const id = deal.milestoneIds[0]!;
    const returnProof = await uploadProof(client);
    const rejected = MilestoneRecord.parse(
      expectOk(
        await call('POST', `/v1/milestones/${id}/reject`, {
          key: client.secretKey,
          body: { buyer_id: deal.buyer.id, rejection_reason: 'Item arrived broken', proofs_of_return: [returnProof] },
        }),
      ),
    );
    expect(rejected).toMatchObject({
      status: 'DELIVERY_RETURNED_AWAITING_APPROVAL',
      is_delivery_rejected: true,
      delivery_rejection_reason: 'Item arrived broken',
      is_return_proof_sent: true,
      proofs_of_return: [returnProof],
      milestone_escrow: { balance: 100_000 },
    });
    expect(Date.parse(rejected.return_deadline_date!) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    expect(rejected.deadlines[0]).toMatchObject({ name: 'return_response', on_lapse: 'return_approved' });
    expect(rejected.allowed_actions).toEqual({ buyer: [], seller: ['approve_return', 'disapprove_return', 'refund'] });
    expect(rejected.transaction.status).toBe('MILESTONE_RETURN_AWAITING_APPROVAL');

    const approved = MilestoneRecord.parse(
      expectOk(await call('PATCH', `/v1/milestones/${id}/reject/approve`, { key: client.secretKey, body: { seller_id: deal.seller.id } })),
    );
    expect(approved).toMatchObject({ status: 'DELIVERY_RETURN_APPROVED', is_return_approved: true, is_delivery_rejected: false, milestone_escrow: { balance: 0 } });
    expect(approved.transaction).toMatchObject({ status: 'COMPLETED', total_amount_refunded: 100_000 });
    expect(await walletBalance(client, deal.buyer.id)).toBe(200_000);
    expect(await walletBalance(client, deal.seller.id)).toBe(0);
    await expectLedgerBalanced();
  });

  it('the seller rejects the return: funds stay held and a dispute becomes possible', async () => {
    const client = await newClient();
    const deal = await deliveredDeal(client);
    const id = deal.milestoneIds[0]!;
    const proof = await uploadProof(client);
    expectOk(await call('POST', `/v1/milestones/${id}/reject`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, rejection_reason: 'No', proofs_of_return: [proof] } }));
    const disapproved = MilestoneRecord.parse(
      expectOk(await call('PATCH', `/v1/milestones/${id}/reject/disapprove`, { key: client.secretKey, body: { seller_id: deal.seller.id } })),
    );
    expect(disapproved).toMatchObject({ status: 'DELIVERY_RETURN_REJECTED', is_return_rejected: true, is_delivery_rejected: false, milestone_escrow: { balance: 100_000 } });
    // Either party may open the dispute: the buyer's money is held (issue #25).
    expect(disapproved.allowed_actions).toEqual({ buyer: ['open_dispute'], seller: ['open_dispute', 'refund'] });
    expect(disapproved.deadlines).toEqual([{ name: 'dispute_opening', due_at: expect.any(String), counted_in: 'business_days', on_lapse: 'dispute_opened' }]);
    expect(disapproved.transaction.status).toBe('MILESTONE_RETURN_REJECTED');
  });
});

describe('refusals leave everything as it was', () => {
  it('the wrong party gets 403 on every milestone operation', async () => {
    const client = await newClient();
    const deal = await deliveredDeal(client);
    const stranger = await newUser(client, 'Stranger');
    const id = deal.milestoneIds[0]!;
    const before = await snapshot(client, deal);
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ['POST', `/v1/milestones/${id}/approve`, { buyer_id: deal.seller.id }],
      ['POST', `/v1/milestones/${id}/approve`, { buyer_id: stranger.id }],
      ['POST', `/v1/milestones/${id}/reject`, { buyer_id: deal.seller.id, rejection_reason: 'x', proofs_of_return: [deal.proof] }],
      ['POST', `/v1/milestones/${id}/deliver`, { seller_id: deal.buyer.id, proofs_of_completion: [deal.proof] }],
      ['PATCH', `/v1/milestones/${id}/reject/approve`, { seller_id: deal.buyer.id }],
      ['PATCH', `/v1/milestones/${id}/reject/disapprove`, { seller_id: stranger.id }],
      ['POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { buyer_id: deal.seller.id }],
    ];
    for (const [method, path, body] of attempts) {
      expectError(await call(method, path, { key: client.secretKey, body }), 403, 'WRONG_PARTY', /is not the (buyer|seller) of this transaction/);
    }
    expect(await snapshot(client, deal)).toBe(before);
  });

  it('the wrong state gets 409 naming the current status', async () => {
    const client = await newClient();
    const deal = await fundedDeal(client);
    const id = deal.milestoneIds[0]!;
    const before = await snapshot(client, deal);
    expectError(await call('POST', `/v1/milestones/${id}/approve`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }), 409, 'INVALID_STATE', /IN_PROGRESS/);
    expectError(await call('POST', `/v1/milestones/${id}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }), 409, 'INVALID_STATE', /IN_PROGRESS/);
    expectError(await call('PATCH', `/v1/milestones/${id}/reject/approve`, { key: client.secretKey, body: { seller_id: deal.seller.id } }), 409, 'INVALID_STATE');
    expectError(await call('PATCH', `/v1/milestones/${id}/reject/disapprove`, { key: client.secretKey, body: { seller_id: deal.seller.id } }), 409, 'INVALID_STATE');
    expect(await snapshot(client, deal)).toBe(before);
  });

  it('funds and delivers milestones in order', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1_000, 2_000, 3_000], { walletFunds: 10_000 });
    const [m1, m2, m3] = deal.milestoneIds;
    const buyer = { buyer_id: deal.buyer.id };
    expectError(await call('POST', `/v1/milestones/${m2}/fund`, { key: client.secretKey, body: buyer }), 409, 'INVALID_STATE', 'Milestone 1 must be funded before milestone 2.');
    expectOk(await call('POST', `/v1/milestones/${m1}/fund`, { key: client.secretKey, body: buyer }));
    expectOk(await call('POST', `/v1/milestones/${m2}/fund`, { key: client.secretKey, body: buyer }));
    const proof = await uploadProof(client);
    expectError(
      await call('POST', `/v1/milestones/${m2}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }),
      409,
      'INVALID_STATE',
      /Only the current milestone \(position 1\)/,
    );
    const m3Funded = await call('POST', `/v1/milestones/${m3}/fund`, { key: client.secretKey, body: buyer });
    expect(m3Funded.status).toBe(200);
    expect(await walletBalance(client, deal.buyer.id)).toBe(4_000);
  });

  it('insufficient wallet balance is 409 with both amounts, and nothing moves', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [100_000], { walletFunds: 99_999.99 });
    const before = await snapshot(client, deal);
    expectError(
      await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }),
      409,
      'INSUFFICIENT_FUNDS',
      /₦99,999\.99.*₦100,000\.00/,
    );
    expect(await snapshot(client, deal)).toBe(before);
  });

  it('unknown, foreign and malformed milestone ids', async () => {
    const client = await newClient();
    const other = await newClient();
    const deal = await fundedDeal(client);
    const id = deal.milestoneIds[0]!;
    const body = { seller_id: deal.seller.id, proofs_of_completion: ['https://files.example.com/proof.jpg'] };
    expectError(await call('POST', `/v1/milestones/0b6f5d0e-8c1a-4c55-9f3e-2b8f5b6c7d8e/deliver`, { key: client.secretKey, body }), 404, 'NOT_FOUND');
    expectError(await call('POST', `/v1/milestones/${id}/deliver`, { key: other.secretKey, body }), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/milestones/${id}`, { key: other.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('POST', `/v1/milestones/not-a-uuid/deliver`, { key: client.secretKey, body }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `/v1/milestones/${id}`, { key: client.secretKey })).status).toBe('IN_PROGRESS');
  });

  it('invalid bodies name the field at fault', async () => {
    const client = await newClient();
    const deal = await fundedDeal(client);
    const id = deal.milestoneIds[0]!;
    const before = await snapshot(client, deal);
    const missing = expectError(await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, body: {} }), 400, 'VALIDATION_ERROR');
    expect(missing.errors?.map((e) => e.field).sort()).toEqual(['proofs_of_completion', 'seller_id']);
    const empty = expectError(
      await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [] } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(empty.errors?.[0]?.field).toBe('proofs_of_completion');
    expectError(
      await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: ['http://insecure.example.com/a.jpg'] } }),
      400,
      'VALIDATION_ERROR',
      /https URL/,
    );
    expectError(
      await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, rawBody: '{"seller_id":', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_JSON',
    );
    expectError(
      await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, rawBody: 'seller_id=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(await snapshot(client, deal)).toBe(before);
  });
});

describe('funding by the marketplace for the buyer', () => {
  it('logs the marketplace as acting (acted_by client), in the log and the event; the money moves as the buyer’s own funding would', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [40_000], { walletFunds: 50_000 });
    const milestoneId = deal.milestoneIds[0]!;
    const funded = expectOk(
      await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, acted_by: 'client' } }),
    );
    expect(funded).toMatchObject({ status: 'IN_PROGRESS', milestone_escrow: { balance: 40_000 } });
    expect(await walletBalance(client, deal.buyer.id)).toBe(10_000);
    const logs = MilestoneWithLogsRecord.parse(expectOk(await call('GET', `/v1/milestones/${milestoneId}`, { key: client.secretKey }))).milestone_logs;
    expect(logs.at(-1)).toMatchObject({ actor: 'client', is_automatic: false, log_message: expect.stringMatching(/^The marketplace funded the milestone for the buyer: ₦40,000\.00 moved/) });
    const events = expectOk(await call('GET', '/v1/events?limit=100', { key: client.secretKey }));
    const event = (events.events as Array<{ type: string; data: { actor: string; milestone: { id: string } } }>).find((e) => e.type === 'milestone.funded' && e.data.milestone.id === milestoneId);
    expect(event?.data.actor).toBe('client');
  });

  it('refuses an acted_by it does not know, and moves nothing', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [40_000], { walletFunds: 50_000 });
    expectError(
      await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, acted_by: 'seller' } }),
      400,
      'VALIDATION_ERROR',
      'acted_by',
    );
    expect(await walletBalance(client, deal.buyer.id)).toBe(50_000);
  });
});

describe('GET /v1/events/{id}', () => {
  it('answers one of the client’s own events as the list has it; another client’s, an unknown and a malformed id are refused', async () => {
    const client = await newClient();
    const other = await newClient();
    const deal = await newDeal(client, [10_000], { walletFunds: 10_000 });
    expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    const listed = (expectOk(await call('GET', '/v1/events?type=milestone.funded&limit=10', { key: client.secretKey })).events as Array<{ id: string }>)[0]!;
    expect(expectOk(await call('GET', `/v1/events/${listed.id}`, { key: client.secretKey }))).toEqual(listed);
    expectError(await call('GET', `/v1/events/${listed.id}`, { key: other.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/events/00000000-0000-4000-8000-000000000000', { key: client.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/events/not-an-id', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/events/${listed.id}`, {}), 401, 'UNAUTHORIZED');
  });
});
