/**
 * Deadlines that act (docs/decisions.md §5, §6), seen through a sandbox test clock: every lapse happens when
 * the client's clock passes it, is logged as automatic, and moves money like the manual operation.
 */
import { describe, expect, it } from 'vitest';
import { DisputeWithPartiesRecord } from '@/lib/contracts/records';
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
  uploadProof,
  walletBalance,
  type TestClient,
} from './support/api';

const MINUTE = 60_000;

async function deliveredMilestone(client: TestClient) {
  const deal = await newDeal(client, [100_000], { walletFunds: 100_000 });
  const id = deal.milestoneIds[0]!;
  const proof = await uploadProof(client);
  expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
  const delivered = expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
  return { ...deal, id, proof, delivered };
}

async function disputed(client: TestClient) {
  const deal = await deliveredMilestone(client);
  const key = client.secretKey;
  expectOk(await call('POST', `/v1/milestones/${deal.id}/reject`, { key, body: { buyer_id: deal.buyer.id, rejection_reason: 'Broken', proofs_of_return: [deal.proof] } }));
  expectOk(await call('PATCH', `/v1/milestones/${deal.id}/reject/disapprove`, { key, body: { seller_id: deal.seller.id } }));
  const dispute = expectOk(await call('POST', '/v1/dispute/create', { key, body: { description: 'No', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: deal.id } }));
  return { ...deal, dispute };
}

async function inEvidence(client: TestClient) {
  const deal = await disputed(client);
  const escalated = DisputeWithPartiesRecord.parse(
    expectOk(await call('PATCH', `/v1/dispute/${deal.dispute.id}/escalate`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } })),
  );
  return { ...deal, escalated };
}

const lastLog = async (client: TestClient, milestoneId: string) => expectOk(await call('GET', `/v1/milestones/${milestoneId}`, { key: client.secretKey })).milestone_logs.at(-1);

describe('milestone deadlines', () => {
  it('an inspection that lapses accepts the delivery automatically and pays the seller', async () => {
    const client = await newClient();
    const deal = await deliveredMilestone(client);
    const justBefore = await advanceTo(client, deal.delivered.inspection_end_date, -MINUTE);
    expect(justBefore.settled).toBe(0);
    expect(expectOk(await call('GET', `/v1/milestones/${deal.id}`, { key: client.secretKey })).status).toBe('UNDER_INSPECTION');
    const after = await advanceTo(client, deal.delivered.inspection_end_date);
    expect(after.settled).toBe(1);
    const milestone = expectOk(await call('GET', `/v1/milestones/${deal.id}`, { key: client.secretKey }));
    expect(milestone).toMatchObject({ status: 'COMPLETED', is_completed: true, milestone_escrow: { balance: 0 } });
    expect(await lastLog(client, deal.id)).toMatchObject({ actor: 'system', is_automatic: true, log_message: expect.stringMatching(/Inspection period ended .* accepted automatically; ₦99,000\.00 released/) });
    expect(await walletBalance(client, deal.seller.id)).toBe(99_000);
    // The buyer's late answer meets the new state.
    expectError(await call('POST', `/v1/milestones/${deal.id}/reject`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, rejection_reason: 'late', proofs_of_return: [deal.proof] } }), 409, 'INVALID_STATE', /COMPLETED/);
    await expectLedgerBalanced();
  });

  it('a return the seller leaves unanswered for 7 days is approved automatically and refunds the buyer', async () => {
    const client = await newClient();
    const deal = await deliveredMilestone(client);
    const rejected = expectOk(
      await call('POST', `/v1/milestones/${deal.id}/reject`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, rejection_reason: 'Broken', proofs_of_return: [deal.proof] } }),
    );
    expect((await advanceTo(client, rejected.return_deadline_date)).settled).toBe(1);
    const milestone = expectOk(await call('GET', `/v1/milestones/${deal.id}`, { key: client.secretKey }));
    expect(milestone).toMatchObject({ status: 'DELIVERY_RETURN_APPROVED', is_return_approved: true, milestone_escrow: { balance: 0 } });
    expect(await lastLog(client, deal.id)).toMatchObject({ actor: 'system', is_automatic: true });
    expect(await walletBalance(client, deal.buyer.id)).toBe(100_000);
  });

  it('the test clock is per client and for sandbox keys only', async () => {
    const client = await newClient();
    const other = await newClient();
    const live = await newClient('live');
    await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { days: 2 } });
    const mine = expectOk(await call('GET', '/v1/test-clock', { key: client.secretKey }));
    const theirs = expectOk(await call('GET', '/v1/test-clock', { key: other.secretKey }));
    expect(mine.offset_ms).toBe(2 * 86_400_000);
    expect(theirs.offset_ms).toBe(0);
    expectError(await call('POST', '/v1/test-clock/advance', { key: live.secretKey, body: { days: 1 } }), 403, 'LIVE_MODE_FORBIDDEN');
    expectError(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: {} }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { days: -1 } }), 400, 'VALIDATION_ERROR');
  });
});

describe('the dispute process', () => {
  it('mediation that lapses escalates itself to 3 business days of evidence submission', async () => {
    const client = await newClient();
    const deal = await disputed(client);
    expect((await advanceTo(client, deal.dispute.intra_party_mediation_end_date)).settled).toBe(1);
    const dispute = DisputeWithPartiesRecord.parse(expectOk(await call('GET', `/v1/dispute/${deal.dispute.id}`, { key: client.secretKey })));
    const expectedEnd = addBusinessDays(new Date(deal.dispute.intra_party_mediation_end_date), 3, holidaySet(NIGERIAN_PUBLIC_HOLIDAYS));
    expect(dispute).toMatchObject({ status: 'EVIDENCE_SUBMISSION', escalated_by: 'system', evidence_submission_end_date: expectedEnd.toISOString() });
    expect(dispute.deadlines).toEqual([{ name: 'evidence_submission', due_at: expectedEnd.toISOString(), counted_in: 'business_days', on_lapse: 'forfeit_or_arbitration' }]);
    expect(dispute.allowed_actions).toEqual({ buyer: ['submit_evidence', 'extend_evidence'], seller: ['submit_evidence', 'extend_evidence', 'cancel'] });
  });

  it('either party escalates; a stranger cannot, and a second escalation is out of turn', async () => {
    const client = await newClient();
    const deal = await disputed(client);
    const stranger = await newUser(client, 'Stranger');
    expectError(await call('PATCH', `/v1/dispute/${deal.dispute.id}/escalate`, { key: client.secretKey, body: { seller_id: stranger.id } }), 403, 'WRONG_PARTY');
    expectError(await call('PATCH', `/v1/dispute/${deal.dispute.id}/escalate`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, seller_id: deal.seller.id } }), 400, 'VALIDATION_ERROR');
    const escalated = expectOk(await call('PATCH', `/v1/dispute/${deal.dispute.id}/escalate`, { key: client.secretKey, body: { seller_id: deal.seller.id } }));
    expect(escalated).toMatchObject({ status: 'EVIDENCE_SUBMISSION', escalated_by: 'seller' });
    expectError(await call('PATCH', `/v1/dispute/${deal.dispute.id}/escalate`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }), 409, 'INVALID_STATE');
  });

  it('evidence from both parties goes to arbitration; the dispute team sees it and its verdict splits the escrow', async () => {
    const client = await newClient();
    const deal = await inEvidence(client);
    const buyerFile = await uploadProof(client);
    const withBuyer = DisputeWithPartiesRecord.parse(
      expectOk(await call('POST', `/v1/dispute/${deal.dispute.id}/evidence`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, text: 'Photos of the damage', files: [buyerFile] } })),
    );
    expect(withBuyer).toMatchObject({ is_buyer_evidence_submitted: true, is_seller_evidence_submitted: false });
    expect(withBuyer.evidence[0]).toMatchObject({ party: 'buyer', text: 'Photos of the damage', files: [{ url: buyerFile, content_type: 'image/png' }] });
    expect(withBuyer.evidence[0]!.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expectError(
      await call('POST', `/v1/dispute/${deal.dispute.id}/evidence`, { key: client.secretKey, body: { seller_id: deal.seller.id, text: 'x', files: ['https://elsewhere.example.com/a.png'] } }),
      400,
      'VALIDATION_ERROR',
    );
    expectOk(await call('POST', `/v1/dispute/${deal.dispute.id}/evidence`, { key: client.secretKey, body: { seller_id: deal.seller.id, text: 'Waybill signed on delivery' } }));
    await advanceTo(client, deal.escalated.evidence_submission_end_date!);
    expectError(
      await call('POST', `/v1/dispute/${deal.dispute.id}/evidence`, { key: client.secretKey, body: { seller_id: deal.seller.id, text: 'Too late' } }),
      409,
      'INVALID_STATE',
      /ARBITRATION/,
    );

    const queue = expectOk(await call('GET', '/v1/operator/disputes?status=ARBITRATION&limit=100', { key: operatorKey() }));
    const queued = queue.disputes.find((d: { id: string }) => d.id === deal.dispute.id);
    expect(queued).toMatchObject({ client_id: client.id, status: 'ARBITRATION' });
    const seen = DisputeWithPartiesRecord.parse(expectOk(await call('GET', `/v1/operator/disputes/${deal.dispute.id}`, { key: operatorKey() })));
    expect(seen.evidence.map((e) => e.party).sort()).toEqual(['buyer', 'seller']);
    expectError(await call('GET', `/v1/operator/disputes/${deal.dispute.id}`, { key: client.secretKey }), 401, 'UNAUTHORIZED');
    expectError(
      await call('POST', `/v1/operator/disputes/${deal.dispute.id}/verdict`, { key: operatorKey(), body: { seller_amount: 100_000.01, reason: 'x' } }),
      400,
      'DISPUTE_AMOUNT_OUT_OF_RANGE',
    );
    const resolved = DisputeWithPartiesRecord.parse(
      expectOk(await call('POST', `/v1/operator/disputes/${deal.dispute.id}/verdict`, { key: operatorKey(), body: { seller_amount: 30_000, reason: 'Partly damaged' } })),
    );
    expect(resolved).toMatchObject({ status: 'RESOLVED', resolution: 'verdict', verdict_seller_amount: 30_000, verdict_reason: 'Partly damaged' });
    expect(resolved.milestone).toMatchObject({ status: 'DISPUTE_RESOLVED', milestone_escrow: { balance: 0 } });
    expect(await walletBalance(client, deal.seller.id)).toBe(29_700);
    expect(await walletBalance(client, deal.buyer.id)).toBe(70_000);
    expectError(await call('POST', `/v1/operator/disputes/${deal.dispute.id}/verdict`, { key: operatorKey(), body: { seller_amount: 1, reason: 'again' } }), 409, 'INVALID_STATE');
    await expectLedgerBalanced();
  });

  it('a party silent through the evidence window forfeits: the escrow goes to the other', async () => {
    const client = await newClient();
    const sellerSilent = await inEvidence(client);
    const buyerSilent = await inEvidence(client);
    expectOk(await call('POST', `/v1/dispute/${sellerSilent.dispute.id}/evidence`, { key: client.secretKey, body: { buyer_id: sellerSilent.buyer.id, text: 'Mine' } }));
    expectOk(await call('POST', `/v1/dispute/${buyerSilent.dispute.id}/evidence`, { key: client.secretKey, body: { seller_id: buyerSilent.seller.id, text: 'Mine' } }));
    const later = [sellerSilent.escalated.evidence_submission_end_date!, buyerSilent.escalated.evidence_submission_end_date!].sort().at(-1)!;
    expect((await advanceTo(client, later)).settled).toBe(2);
    const a = expectOk(await call('GET', `/v1/dispute/${sellerSilent.dispute.id}`, { key: client.secretKey }));
    const b = expectOk(await call('GET', `/v1/dispute/${buyerSilent.dispute.id}`, { key: client.secretKey }));
    expect(a).toMatchObject({ status: 'RESOLVED', resolution: 'forfeit_seller' });
    expect(b).toMatchObject({ status: 'RESOLVED', resolution: 'forfeit_buyer' });
    expect(await walletBalance(client, sellerSilent.buyer.id)).toBe(100_000);
    expect(await walletBalance(client, buyerSilent.seller.id)).toBe(99_000);
    await expectLedgerBalanced();
  });

  it('nobody speaking declines arbitration and keeps the funds held; the seller may then withdraw', async () => {
    const client = await newClient();
    const deal = await inEvidence(client);
    await advanceTo(client, deal.escalated.evidence_submission_end_date!);
    const declined = expectOk(await call('GET', `/v1/dispute/${deal.dispute.id}`, { key: client.secretKey }));
    expect(declined).toMatchObject({ status: 'ARBITRATION_DECLINED', resolution: null, milestone: { milestone_escrow: { balance: 100_000 } } });
    expect(declined.allowed_actions).toEqual({ buyer: [], seller: ['cancel'] });
    expectError(await call('PATCH', `/v1/dispute/${deal.dispute.id}/cancel`, { key: client.secretKey, body: { seller_id: deal.buyer.id, cancellation_agreement_details: 'x' } }), 403, 'WRONG_PARTY');
    const canceled = expectOk(
      await call('PATCH', `/v1/dispute/${deal.dispute.id}/cancel`, { key: client.secretKey, body: { seller_id: deal.seller.id, cancellation_agreement_details: 'Agreed to refund' } }),
    );
    expect(canceled).toMatchObject({ status: 'CANCELED', canceled_by: 'seller', cancellation_agreement_details: 'Agreed to refund', resolution: 'canceled' });
    expect(await walletBalance(client, deal.buyer.id)).toBe(100_000);
    expectError(await call('PATCH', `/v1/dispute/${deal.dispute.id}/cancel`, { key: client.secretKey, body: { seller_id: deal.seller.id, cancellation_agreement_details: 'again' } }), 409, 'INVALID_STATE');
    await expectLedgerBalanced();
  });
});
