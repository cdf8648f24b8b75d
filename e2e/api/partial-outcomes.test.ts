/**
 * Partial outcomes without a dispute (docs/decisions.md §17, §16–§18): the seller's refunds and the buyer's
 * partial acceptance, over HTTP against the real server and database, each money test ending with the
 * ledger audit balanced.
 */
import { describe, expect, inject, it } from 'vitest';
import { MilestoneRecord, MilestoneWithLogsRecord } from '@/lib/contracts/records';
import {
  advanceTo,
  call,
  expectError,
  expectLedgerBalanced,
  expectOk,
  newClient,
  newDeal,
  snapshot,
  uploadProof,
  walletBalance,
  type TestClient,
} from './support/api';

type Deal = Awaited<ReturnType<typeof newDeal>>;

async function milestone(client: TestClient, id: string) {
  return MilestoneWithLogsRecord.parse(expectOk(await call('GET', `/v1/milestones/${id}`, { key: client.secretKey })));
}

async function eventsOf(client: TestClient, transactionId: string) {
  const data = expectOk(await call('GET', `/v1/events?transaction_id=${transactionId}&limit=100`, { key: client.secretKey }));
  return data.events as Array<{ type: string; data: { actor: string; automatic: boolean; milestone: { partial_acceptance: { status: string } | null } } }>;
}

const post = (client: TestClient, path: string, body: Record<string, unknown>) => call('POST', path, { key: client.secretKey, body });

/** A deal of two milestones, the first funded (and delivered when asked): wallet funds enough for both. */
async function staged(client: TestClient, opts: { delivered?: boolean; commission_payer?: string } = {}) {
  const deal = await newDeal(client, [100_000, 50_000], { walletFunds: 400_000, commission_payer: opts.commission_payer });
  const id = deal.milestoneIds[0]!;
  expectOk(await post(client, `/v1/milestones/${id}/fund`, { buyer_id: deal.buyer.id }));
  const proof = await uploadProof(client);
  if (opts.delivered) expectOk(await post(client, `/v1/milestones/${id}/deliver`, { seller_id: deal.seller.id, proofs_of_completion: [proof] }));
  return { deal, id, proof };
}

async function expectRefused(client: TestClient, deal: Deal, path: string, body: Record<string, unknown>, status: number, code: string, message?: RegExp) {
  const before = await snapshot(client, deal);
  expectError(await post(client, path, body), status, code, message);
  expect(await snapshot(client, deal)).toBe(before);
}

async function propose(client: TestClient, deal: Deal, id: string, release_amount: number) {
  return MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/partial-acceptance`, { buyer_id: deal.buyer.id, release_amount, reason: 'Four panels arrived cracked' })));
}

describe(`seller refunds (${inject('database')})`, () => {
  it('refunds part, refuses more than is held with nothing changed, then refunds the rest: REFUNDED, and the transaction moves on', async () => {
    const client = await newClient();
    const { deal, id } = await staged(client);
    const before = await walletBalance(client, deal.buyer.id);

    const part = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 30_000, reason: 'Three chairs out of stock' })));
    expect(part).toMatchObject({ status: 'IN_PROGRESS', amount_refunded: 30_000, amount_released: null, partial_acceptance: null, milestone_escrow: { balance: 70_000 } });
    expect(part.allowed_actions.seller).toContain('refund');
    expect(part.transaction).toMatchObject({ total_amount_refunded: 30_000 });
    expect(await walletBalance(client, deal.buyer.id)).toBe(before + 30_000);

    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 70_000.01, reason: 'Too much' }, 400, 'VALIDATION_ERROR', /at most ₦70,000\.00/);
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { buyer_id: deal.buyer.id, amount: 10, reason: 'Mine' }, 400, 'UNKNOWN_FIELD', /buyer_id/);
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.buyer.id, amount: 10, reason: 'The buyer tries' }, 403, 'WRONG_PARTY');
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 0, reason: 'Nothing' }, 400, 'VALIDATION_ERROR');
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 10.001, reason: 'A fraction of a kobo' }, 400, 'VALIDATION_ERROR');
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 10, reason: 'x', extra: true }, 400, 'UNKNOWN_FIELD', /extra/);
    await expectRefused(client, deal, `/v1/milestones/${deal.milestoneIds[1]}/refund`, { seller_id: deal.seller.id, amount: 10, reason: 'Unfunded' }, 409, 'INVALID_STATE');

    const all = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 70_000, reason: 'Cannot deliver at all' })));
    expect(all).toMatchObject({ status: 'REFUNDED', amount_refunded: 100_000, milestone_escrow: { balance: 0 }, deadlines: [], allowed_actions: { buyer: [], seller: [] } });
    expect(all.transaction).toMatchObject({ status: 'MILESTONE_PENDING_FUNDING', current_milestone_id: deal.milestoneIds[1], total_amount_refunded: 100_000 });
    expect(await walletBalance(client, deal.buyer.id)).toBe(before + 100_000);
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 1, reason: 'Again' }, 409, 'INVALID_STATE');

    const logs = (await milestone(client, id)).milestone_logs.map((l) => l.log_message);
    expect(logs.at(-2)).toMatch(/Seller refunded ₦30,000\.00 to the buyer: Three chairs out of stock\. ₦70,000\.00 is still held\./);
    expect(logs.at(-1)).toMatch(/the milestone is refunded/);
    const events = (await eventsOf(client, deal.transaction.id)).filter((e) => e.type === 'milestone.refunded');
    expect(events.map((e) => e.data.actor)).toEqual(['seller', 'seller']);
    await expectLedgerBalanced();
  });

  it('after a part is refunded, approval releases what is held with the fee on it, not the full price', async () => {
    const client = await newClient();
    const { deal, id, proof } = await staged(client);
    expectOk(await post(client, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 30_000, reason: 'Short delivery' }));
    expectOk(await post(client, `/v1/milestones/${id}/deliver`, { seller_id: deal.seller.id, proofs_of_completion: [proof] }));
    const approved = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/approve`, { buyer_id: deal.buyer.id })));
    expect(approved).toMatchObject({ status: 'COMPLETED', amount_released: 70_000, amount_refunded: 30_000, milestone_escrow: { balance: 0 } });
    expect(await walletBalance(client, deal.seller.id)).toBe(69_300);
    await expectLedgerBalanced();
  });

  it('with the buyer paying the fee, a refund gives its fee share back pro rata', async () => {
    const client = await newClient();
    const { deal, id } = await staged(client, { commission_payer: 'BUYER_100' });
    const before = await walletBalance(client, deal.buyer.id);
    const part = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 25_000, reason: 'Short delivery' })));
    // Funding held ₦101,000 (the price and the ₦1,000 fee); ₦25,000 of the price takes ₦250 of the fee back with it.
    expect(part.milestone_escrow.balance).toBe(75_750);
    expect(await walletBalance(client, deal.buyer.id)).toBe(before + 25_250);
    await expectRefused(client, deal, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 75_000.01, reason: 'x' }, 400, 'VALIDATION_ERROR', /at most ₦75,000\.00/);
    await expectLedgerBalanced();
  });

  it('a refund of everything during mediation withdraws the dispute', async () => {
    const client = await newClient();
    const { deal, id, proof } = await staged(client, { delivered: true });
    expectOk(await post(client, `/v1/milestones/${id}/reject`, { buyer_id: deal.buyer.id, rejection_reason: 'Broken', proofs_of_return: [proof] }));
    expectOk(await call('PATCH', `/v1/milestones/${id}/reject/disapprove`, { key: client.secretKey, body: { seller_id: deal.seller.id } }));
    const dispute = expectOk(await post(client, '/v1/dispute/create', { description: 'Refused', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: id }));
    expect((await milestone(client, id)).allowed_actions.seller).toContain('refund');
    const refunded = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/refund`, { seller_id: deal.seller.id, amount: 100_000, reason: 'We settled it' })));
    expect(refunded).toMatchObject({ status: 'REFUNDED', milestone_escrow: { balance: 0 } });
    expect(expectOk(await call('GET', `/v1/dispute/${dispute.id}`, { key: client.secretKey }))).toMatchObject({ status: 'CANCELED', canceled_by: 'seller' });
    const types = (await eventsOf(client, deal.transaction.id)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['milestone.refunded', 'dispute.canceled']);
    await expectLedgerBalanced();
  });
});

describe(`partial acceptance (${inject('database')})`, () => {
  it('accepted: the release to the seller with the fee pro rata, the rest to the buyer, to the kobo', async () => {
    const client = await newClient();
    const { deal, id } = await staged(client, { delivered: true, commission_payer: 'SPLIT_50_50' });
    const buyerBefore = await walletBalance(client, deal.buyer.id);

    const p = await propose(client, deal, id, 60_000);
    expect(p.partial_acceptance).toMatchObject({ release_amount: 60_000, refund_amount: 40_200, status: 'PENDING', answered_at: null, decline_reason: null });
    expect(p.allowed_actions).toEqual({ buyer: ['approve', 'reject'], seller: ['refund', 'accept_partial_acceptance', 'decline_partial_acceptance'] });
    expect(p.inspection_end_date).toBeNull();
    expect(p.deadlines).toEqual([{ name: 'partial_acceptance_response', due_at: expect.any(String), counted_in: 'business_days', on_lapse: 'partial_acceptance_accepted' }]);

    await expectRefused(client, deal, `/v1/milestones/${id}/partial-acceptance`, { buyer_id: deal.buyer.id, release_amount: 50_000, reason: 'Another' }, 409, 'INVALID_STATE', /already waiting/);
    await expectRefused(client, deal, `/v1/milestones/${id}/partial-acceptance/accept`, { seller_id: deal.buyer.id }, 403, 'WRONG_PARTY');

    const accepted = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/partial-acceptance/accept`, { seller_id: deal.seller.id })));
    expect(accepted).toMatchObject({ status: 'COMPLETED', amount_released: 60_000, amount_refunded: 40_000, milestone_escrow: { balance: 0 }, deadlines: [] });
    expect(accepted.partial_acceptance).toMatchObject({ status: 'ACCEPTED', answered_at: expect.any(String) });
    expect(accepted.transaction).toMatchObject({ current_milestone_id: deal.milestoneIds[1], total_amount_disbursed: 59_700 });
    // Fee ₦1,000 on ₦100,000, split: ₦600 on the ₦60,000 released, ₦300 from each side.
    expect(await walletBalance(client, deal.seller.id)).toBe(59_700);
    expect(await walletBalance(client, deal.buyer.id)).toBe(buyerBefore + 40_200);
    const types = (await eventsOf(client, deal.transaction.id)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['milestone.partial_acceptance_proposed', 'milestone.partial_acceptance_accepted']));
    await expectLedgerBalanced();
  });

  it('declined: back to inspection, whose deadline restarts from the decline', async () => {
    const client = await newClient();
    const { deal, id } = await staged(client, { delivered: true });
    await propose(client, deal, id, 1_000);
    const before = Date.now();
    const declined = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${id}/partial-acceptance/decline`, { seller_id: deal.seller.id, reason: 'All arrived intact' })));
    expect(declined).toMatchObject({ status: 'UNDER_INSPECTION', milestone_escrow: { balance: 100_000 } });
    expect(declined.partial_acceptance).toMatchObject({ status: 'DECLINED', decline_reason: 'All arrived intact' });
    const restart = Date.parse(declined.inspection_end_date!) - before;
    expect(restart).toBeGreaterThanOrEqual(3 * 86_400_000 - 5_000);
    expect(restart).toBeLessThanOrEqual(3 * 86_400_000 + 60_000);
    expect(declined.deadlines.map((d) => d.name)).toEqual(['inspection']);
    expect(declined.allowed_actions).toEqual({ buyer: ['approve', 'reject', 'propose_partial_acceptance'], seller: ['refund'] });
    await expectRefused(client, deal, `/v1/milestones/${id}/partial-acceptance/accept`, { seller_id: deal.seller.id }, 409, 'INVALID_STATE');
    expect((await eventsOf(client, deal.transaction.id)).at(-1)!.type).toBe('milestone.partial_acceptance_declined');
    await expectLedgerBalanced();
  });

  it('unanswered: accepted by the lapse of partial_acceptance_response, logged as automatic', async () => {
    const client = await newClient();
    const { deal, id } = await staged(client, { delivered: true });
    const p = await propose(client, deal, id, 80_000);
    await advanceTo(client, p.deadlines[0]!.due_at);
    const m = await milestone(client, id);
    expect(m).toMatchObject({ status: 'COMPLETED', amount_released: 80_000, amount_refunded: 20_000 });
    expect(m.partial_acceptance).toMatchObject({ status: 'ACCEPTED' });
    expect(m.milestone_logs.at(-1)).toMatchObject({ actor: 'system', is_automatic: true, log_message: expect.stringMatching(/accepted automatically/) });
    expect(await walletBalance(client, deal.seller.id)).toBe(79_200);
    const last = (await eventsOf(client, deal.transaction.id)).at(-1)!;
    expect(last).toMatchObject({ type: 'milestone.partial_acceptance_accepted', data: { actor: 'system', automatic: true } });
    await expectLedgerBalanced();
  });

  it('a pending proposal is withdrawn by the buyer’s approval, or by its rejection', async () => {
    const client = await newClient();
    const a = await staged(client, { delivered: true });
    await propose(client, a.deal, a.id, 10_000);
    const approved = MilestoneRecord.parse(expectOk(await post(client, `/v1/milestones/${a.id}/approve`, { buyer_id: a.deal.buyer.id })));
    expect(approved).toMatchObject({ status: 'COMPLETED', amount_released: 100_000, partial_acceptance: { status: 'WITHDRAWN' }, deadlines: [] });
    expect(await walletBalance(client, a.deal.seller.id)).toBe(99_000);
    expect((await milestone(client, a.id)).milestone_logs.at(-1)!.log_message).toMatch(/released to the seller .* The pending partial acceptance is withdrawn\.$/);

    const b = await staged(client, { delivered: true });
    await propose(client, b.deal, b.id, 10_000);
    const rejected = MilestoneRecord.parse(
      expectOk(await post(client, `/v1/milestones/${b.id}/reject`, { buyer_id: b.deal.buyer.id, rejection_reason: 'Broken', proofs_of_return: [b.proof] })),
    );
    expect(rejected).toMatchObject({ status: 'DELIVERY_RETURNED_AWAITING_APPROVAL', partial_acceptance: { status: 'WITHDRAWN' } });
    expect(rejected.deadlines.map((d) => d.name)).toEqual(['return_response']);
    expect((await milestone(client, b.id)).milestone_logs.at(-1)!.log_message).toMatch(/The pending partial acceptance is withdrawn\.$/);
    await expectLedgerBalanced();
  });

  it('refuses bad amounts and the wrong state with nothing changed', async () => {
    const client = await newClient();
    const { deal, id } = await staged(client);
    const path = `/v1/milestones/${id}/partial-acceptance`;
    await expectRefused(client, deal, path, { buyer_id: deal.buyer.id, release_amount: 10, reason: 'Before delivery' }, 409, 'INVALID_STATE');
    expectOk(await post(client, `/v1/milestones/${id}/deliver`, { seller_id: deal.seller.id, proofs_of_completion: [await uploadProof(client)] }));
    await expectRefused(client, deal, path, { buyer_id: deal.buyer.id, release_amount: 100_000, reason: 'All of it' }, 400, 'VALIDATION_ERROR', /less than ₦100,000\.00/);
    await expectRefused(client, deal, path, { buyer_id: deal.buyer.id, release_amount: -5, reason: 'Negative' }, 400, 'VALIDATION_ERROR');
    await expectRefused(client, deal, path, { buyer_id: deal.buyer.id, release_amount: '500', reason: 'A string' }, 400, 'VALIDATION_ERROR');
    await expectRefused(client, deal, path, { buyer_id: deal.buyer.id, release_amount: 500, reason: 'x', surprise: 1 }, 400, 'UNKNOWN_FIELD', /surprise/);
    await expectRefused(client, deal, path, { buyer_id: deal.seller.id, release_amount: 500, reason: 'The seller tries' }, 403, 'WRONG_PARTY');
    await expectRefused(client, deal, `${path}/decline`, { seller_id: deal.seller.id }, 409, 'INVALID_STATE');
    await expectLedgerBalanced();
  });
});

describe(`racing answers on one milestone (${inject('database')})`, () => {
  it('20 at once of accept, approve, reject and a full refund: one of the answers wins, the others are 409, the ledger balances', async () => {
    const client = await newClient();
    const { deal, id, proof } = await staged(client, { delivered: true });
    await propose(client, deal, id, 50_000);
    const key = client.secretKey;
    const kinds = ['accept', 'approve', 'reject', 'refund'] as const;
    const requests = Array.from({ length: 20 }, (_, i) => kinds[i % 4]!);
    const results = await Promise.all(
      requests.map((kind) => {
        switch (kind) {
          case 'accept':
            return call('POST', `/v1/milestones/${id}/partial-acceptance/accept`, { key, body: { seller_id: deal.seller.id } });
          case 'approve':
            return call('POST', `/v1/milestones/${id}/approve`, { key, body: { buyer_id: deal.buyer.id } });
          case 'reject':
            return call('POST', `/v1/milestones/${id}/reject`, { key, body: { buyer_id: deal.buyer.id, rejection_reason: 'race', proofs_of_return: [proof] } });
          case 'refund':
            return call('POST', `/v1/milestones/${id}/refund`, { key, body: { seller_id: deal.seller.id, amount: 100_000, reason: 'race' } });
        }
      }),
    );
    const won = requests.filter((_, i) => results[i]!.status === 200);
    expect(results.every((r) => r.status === 200 || r.status === 409), JSON.stringify(results.map((r) => r.status))).toBe(true);
    // Accept, approve and a full refund each end the milestone; a rejection leaves it refundable, so a
    // full refund may follow it (the seller gives back what the return asks for).
    const answers = won.filter((k) => k !== 'refund');
    expect(answers.length).toBeLessThanOrEqual(1);
    expect(won.filter((k) => k === 'refund').length).toBeLessThanOrEqual(1);
    expect(won.length === 1 || (won.length === 2 && answers[0] === 'reject')).toBe(true);
    const m = await milestone(client, id);
    const seller = await walletBalance(client, deal.seller.id);
    if (won.includes('refund')) expect(m).toMatchObject({ status: 'REFUNDED', milestone_escrow: { balance: 0 } });
    else if (won[0] === 'accept') expect(seller).toBe(49_500);
    else if (won[0] === 'approve') expect(seller).toBe(99_000);
    else expect(m).toMatchObject({ status: 'DELIVERY_RETURNED_AWAITING_APPROVAL', milestone_escrow: { balance: 100_000 } });
    if (!won.includes('accept') && !won.includes('approve')) expect(seller).toBe(0);
    await expectLedgerBalanced();
  });
});
