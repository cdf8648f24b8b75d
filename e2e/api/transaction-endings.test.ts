/**
 * Ending a transaction early (docs/decisions.md §13), over HTTP: cancellation at once, by request and answer, by
 * the buyer past an undelivered due date, and termination after a resolved dispute. After each: the
 * statuses, the wallets, the ledger audit, the logs and the events; after each refusal, nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { TransactionDetailRecord, TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import { call, expectError, expectLedgerBalanced, expectOk, newClient, newDeal, snapshot, uploadProof, walletBalance, type TestClient } from './support/api';

type Deal = Awaited<ReturnType<typeof newDeal>>;
type Party = 'buyer' | 'seller';

const as = (deal: Deal, party: Party) => ({ [`${party}_id`]: deal[party].id });

function post(client: TestClient, path: string, body: Record<string, unknown>) {
  return call('POST', path, { key: client.secretKey, body });
}

async function transaction(client: TestClient, deal: Deal) {
  return TransactionDetailRecord.parse(expectOk(await call('GET', `/v1/transactions/${deal.transaction.id}`, { key: client.secretKey })));
}

async function eventTypes(client: TestClient, deal: Deal): Promise<string[]> {
  const data = expectOk(await call('GET', `/v1/events?transaction_id=${deal.transaction.id}&limit=100`, { key: client.secretKey }));
  return (data.events as Array<{ type: string }>).map((e) => e.type);
}

async function logsOf(client: TestClient, milestoneId: string): Promise<string[]> {
  const data = expectOk(await call('GET', `/v1/milestones/${milestoneId}`, { key: client.secretKey }));
  return (data.milestone_logs as Array<{ log_message: string }>).map((l) => l.log_message);
}

const fund = async (client: TestClient, deal: Deal, i = 0) => expectOk(await post(client, `/v1/milestones/${deal.milestoneIds[i]}/fund`, as(deal, 'buyer')));
const deliver = async (client: TestClient, deal: Deal, i = 0) =>
  post(client, `/v1/milestones/${deal.milestoneIds[i]}/deliver`, { ...as(deal, 'seller'), proofs_of_completion: [await uploadProof(client)] });

/** A refused request: its status and code, and the deal exactly as before. */
async function expectRefused(client: TestClient, deal: Deal, path: string, body: Record<string, unknown>, status: number, code: string, message?: RegExp) {
  const before = await snapshot(client, deal);
  expectError(await post(client, path, body), status, code, message);
  expect(await snapshot(client, deal)).toBe(before);
}

describe('cancellation before any escrow holds money', () => {
  it.each(['buyer', 'seller'] as const)('the %s cancels at once: every milestone CANCELED, nothing moves, and nothing can happen after', async (party) => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 2000], { walletFunds: 5000 });
    const before = await transaction(client, deal);
    expect(before.allowed_actions).toEqual({ buyer: ['cancel'], seller: ['cancel'] });

    const res = await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, party), reason: 'We changed our plans' });
    const t = TransactionWithMilestonesRecord.parse(expectOk(res));
    expect(res.body.message).toMatch(/canceled/);
    expect(t).toMatchObject({ status: 'CANCELED', ended_by: party, end_reason: 'We changed our plans', cancellation_request: null, total_amount_refunded: 0 });
    expect(t.date_canceled).not.toBeNull();
    expect(t.milestones.map((m) => m.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(t.allowed_actions).toEqual({ buyer: [], seller: [] });
    expect(t.milestones.every((m) => m.allowed_actions.buyer.length === 0 && m.allowed_actions.seller.length === 0)).toBe(true);
    expect(await transaction(client, deal)).toEqual({ ...t, awaiting: { buyer: [], seller: [] }, next_deadline: null });
    expect(await walletBalance(client, deal.buyer.id)).toBe(5000);
    expect(await eventTypes(client, deal)).toEqual(['transaction.created', 'transaction.canceled']);
    expect((await logsOf(client, deal.milestoneIds[1]!)).at(-1)).toMatch(new RegExp(`Transaction canceled by the ${party}`));

    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Again' }, 409, 'INVALID_STATE', /already ended/);
    await expectRefused(client, deal, `/v1/milestones/${deal.milestoneIds[0]}/fund`, as(deal, 'buyer'), 409, 'INVALID_STATE', /canceled/);
    await expectLedgerBalanced();
  });
});

describe('cancellation once money is held: a request the other party answers', () => {
  it('the seller asks, the buyer approves: the escrow goes back to the buyer in full, the fee share too', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 2000], { walletFunds: 5000, commission_payer: 'BUYER_100' });
    await fund(client, deal, 0);
    const afterFunding = await walletBalance(client, deal.buyer.id);
    expect(afterFunding).toBeLessThan(4000);

    const asked = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'seller'), reason: 'Out of stock' })));
    expect(asked.status).toBe('MILESTONE_IN_PROGRESS');
    expect(asked.cancellation_request).toMatchObject({ requested_by: 'seller', reason: 'Out of stock' });
    expect(asked.allowed_actions).toEqual({ buyer: ['approve_cancellation', 'decline_cancellation'], seller: [] });

    // The requester cannot answer its own request, nor ask twice; the buyer is told to answer instead.
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel/approve`, as(deal, 'seller'), 403, 'WRONG_PARTY', /only the buyer/i);
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'seller'), reason: 'Again' }, 409, 'INVALID_STATE', /already waiting/);
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Me too' }, 409, 'INVALID_STATE', /approve or decline/);

    const done = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel/approve`, as(deal, 'buyer'))));
    expect(done).toMatchObject({ status: 'CANCELED', ended_by: 'buyer', end_reason: 'Out of stock', cancellation_request: null });
    expect(done.milestones.map((m) => [m.status, m.milestone_escrow.balance])).toEqual([['CANCELED', 0], ['CANCELED', 0]]);
    expect(done.total_amount_refunded).toBe(done.total_amount_funded);
    expect(await walletBalance(client, deal.buyer.id)).toBe(5000);
    expect(await walletBalance(client, deal.seller.id)).toBe(0);
    const history = expectOk(await call('GET', `/v1/wallets/${deal.buyer.id}/history`, { key: client.secretKey }));
    expect((history.entries as Array<{ kind: string; amount: number }>).find((e) => e.kind === 'refund')?.amount).toBe(5000 - afterFunding);
    expect(await eventTypes(client, deal)).toEqual(['transaction.created', 'milestone.funded', 'transaction.cancellation_requested', 'transaction.canceled']);
    expect((await logsOf(client, deal.milestoneIds[0]!)).at(-1)).toMatch(/returned from escrow to the buyer's wallet/);
    await expectLedgerBalanced();
  });

  it('the buyer asks, the seller declines: the request is cleared and the deal goes on to delivery', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    await fund(client, deal);
    expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Found it cheaper' }));
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel/decline`, as(deal, 'buyer'), 403, 'WRONG_PARTY');

    const declined = TransactionWithMilestonesRecord.parse(
      expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel/decline`, { ...as(deal, 'seller'), reason: 'The work is nearly done' })),
    );
    expect(declined).toMatchObject({ status: 'MILESTONE_IN_PROGRESS', cancellation_request: null, ended_by: null });
    expect(declined.allowed_actions).toEqual({ buyer: ['cancel'], seller: ['cancel'] });
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel/approve`, as(deal, 'seller'), 409, 'INVALID_STATE', /no cancellation request/);
    expectOk(await deliver(client, deal));
    expect(await eventTypes(client, deal)).toEqual(['transaction.created', 'milestone.funded', 'transaction.cancellation_requested', 'transaction.cancellation_declined', 'milestone.delivered']);
    expect(await logsOf(client, deal.milestoneIds[0]!)).toEqual(expect.arrayContaining([expect.stringMatching(/declined the buyer's cancellation request: The work is nearly done/)]));
    await expectLedgerBalanced();
  });

  it('completed milestones stay paid: only the unfinished are canceled and refunded', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 2000], { walletFunds: 5000 });
    await fund(client, deal, 0);
    expectOk(await deliver(client, deal, 0));
    expectOk(await post(client, `/v1/milestones/${deal.milestoneIds[0]}/approve`, as(deal, 'buyer')));
    await fund(client, deal, 1);
    const sellerPaid = await walletBalance(client, deal.seller.id);
    const buyerBefore = await walletBalance(client, deal.buyer.id);
    expect(sellerPaid).toBeGreaterThan(0);

    expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Second phase not needed' }));
    const done = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel/approve`, as(deal, 'seller'))));
    expect(done.milestones.map((m) => m.status)).toEqual(['COMPLETED', 'CANCELED']);
    expect(await walletBalance(client, deal.seller.id)).toBe(sellerPaid);
    expect(await walletBalance(client, deal.buyer.id)).toBe(buyerBefore + done.total_amount_refunded);
    expect(done.total_amount_refunded).toBeGreaterThanOrEqual(2000);
    await expectLedgerBalanced();
  });
});

describe('cancellation by the buyer alone past an undelivered due date', () => {
  it('is at once for the buyer once the client’s clock passes the due date; the seller still only asks', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    await fund(client, deal);
    // The first milestone is due in 10 days.
    expectOk(await post(client, '/v1/test-clock/advance', { days: 11 }));
    const t = await transaction(client, deal);
    expect(t.allowed_actions.buyer).toContain('cancel');

    const seller = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'seller'), reason: 'Running late' })));
    expect(seller.status).toBe('MILESTONE_IN_PROGRESS');
    expect(seller.cancellation_request?.requested_by).toBe('seller');

    // Past due, the buyer need not answer the seller's request: cancelling is the buyer's right alone.
    const buyer = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Never delivered' })));
    expect(buyer).toMatchObject({ status: 'CANCELED', ended_by: 'buyer', end_reason: 'Never delivered', cancellation_request: null });
    expect(await walletBalance(client, deal.buyer.id)).toBe(5000);
    expect((await logsOf(client, deal.milestoneIds[0]!)).at(-1)).toMatch(/past its due date undelivered/);
    await expectLedgerBalanced();
  });
});

describe('refusals while a milestone is inspected, returned or disputed', () => {
  it('refuses to cancel under inspection, and refuses an approval that arrives after the delivery', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    await fund(client, deal);
    expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Changed my mind' }));
    expectOk(await deliver(client, deal));
    for (const party of ['buyer', 'seller'] as const) {
      await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, party), reason: 'Now' }, 409, 'INVALID_STATE', /under inspection/);
    }
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel/approve`, as(deal, 'seller'), 409, 'INVALID_STATE', /under inspection/);
    expect((await transaction(client, deal)).allowed_actions).toEqual({ buyer: [], seller: ['decline_cancellation'] });
    await expectLedgerBalanced();
  });

  it('answers 404 for an unknown transaction and another client’s', async () => {
    const client = await newClient();
    const other = await newClient();
    const deal = await newDeal(client, [1000]);
    expectError(await post(other, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'x' }), 404, 'NOT_FOUND');
    expectError(await post(client, `/v1/transactions/0190f5a4-0000-7000-8000-000000000000/terminate`, { ...as(deal, 'buyer'), reason: 'x' }), 404, 'NOT_FOUND');
    expect((await transaction(client, deal)).status).toBe('MILESTONE_PENDING_FUNDING');
  });
});

describe('termination after a resolved dispute', () => {
  async function resolvedDispute() {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 2000, 3000], { walletFunds: 10_000 });
    const m = deal.milestoneIds[0]!;
    await fund(client, deal, 0);
    await fund(client, deal, 1);
    expectOk(await deliver(client, deal, 0));
    const proof = await uploadProof(client);
    expectOk(await post(client, `/v1/milestones/${m}/reject`, { ...as(deal, 'buyer'), rejection_reason: 'Broken', proofs_of_return: [proof] }));
    expectOk(await call('PATCH', `/v1/milestones/${m}/reject/disapprove`, { key: client.secretKey, body: as(deal, 'seller') }));
    const dispute = expectOk(await post(client, '/v1/dispute/create', { description: 'Return refused', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: m }));
    return { client, deal, disputeId: dispute.id as string };
  }

  it('is refused before the dispute is resolved, then either party ends the rest at once', async () => {
    const { client, deal, disputeId } = await resolvedDispute();
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/terminate`, { ...as(deal, 'seller'), reason: 'Enough' }, 409, 'INVALID_STATE', /only after one of its disputes is resolved/);
    expectOk(await call('PATCH', `/v1/dispute/${disputeId}/add-dispute-amount`, { key: client.secretKey, body: { ...as(deal, 'seller'), dispute_amount: 500 } }));
    expectOk(await call('PATCH', `/v1/dispute/${disputeId}/approve-dispute-amount`, { key: client.secretKey, body: as(deal, 'buyer') }));
    const before = await transaction(client, deal);
    expect(before.allowed_actions).toEqual({ buyer: ['cancel', 'terminate'], seller: ['cancel', 'terminate'] });
    const buyerBefore = await walletBalance(client, deal.buyer.id);
    const sellerBefore = await walletBalance(client, deal.seller.id);

    const t = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/terminate`, { ...as(deal, 'seller'), reason: 'We part ways' })));
    expect(t).toMatchObject({ status: 'TERMINATED', ended_by: 'seller', end_reason: 'We part ways' });
    expect(t.milestones.map((m) => m.status)).toEqual(['DISPUTE_RESOLVED', 'CANCELED', 'CANCELED']);
    expect(await walletBalance(client, deal.buyer.id)).toBe(buyerBefore + before.milestones[1]!.milestone_escrow.balance);
    expect(await walletBalance(client, deal.seller.id)).toBe(sellerBefore);
    expect((await eventTypes(client, deal)).at(-1)).toBe('transaction.terminated');
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/terminate`, { ...as(deal, 'buyer'), reason: 'Again' }, 409, 'INVALID_STATE', /already ended/);
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Again' }, 409, 'INVALID_STATE', /already ended/);
    await expectLedgerBalanced();
  });
});

describe('races', () => {
  it('a cancellation approval against a delivery, 20 deals at once: exactly one wins each, nothing lost', async () => {
    const client = await newClient();
    const deals = await Promise.all(Array.from({ length: 20 }, () => newDeal(client, [1000], { walletFunds: 2000 })));
    const proof = await uploadProof(client);
    for (const deal of deals) {
      await fund(client, deal);
      expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Changed my mind' }));
    }
    const outcomes = await Promise.all(
      deals.map(async (deal) => {
        const [approve, delivered] = await Promise.all([
          post(client, `/v1/transactions/${deal.transaction.id}/cancel/approve`, as(deal, 'seller')),
          post(client, `/v1/milestones/${deal.milestoneIds[0]}/deliver`, { ...as(deal, 'seller'), proofs_of_completion: [proof] }),
        ]);
        return { deal, approve: approve.status, deliver: delivered.status };
      }),
    );
    for (const { deal, approve, deliver: delivered } of outcomes) {
      expect([approve, delivered].sort()).toEqual([200, 409]);
      const t = await transaction(client, deal);
      const buyer = await walletBalance(client, deal.buyer.id);
      if (approve === 200) {
        expect(t.status).toBe('CANCELED');
        expect(buyer).toBe(2000);
      } else {
        expect(t.milestones[0]!.status).toBe('UNDER_INSPECTION');
        expect(t.milestones[0]!.milestone_escrow.balance).toBe(2000 - buyer);
      }
    }
    await expectLedgerBalanced();
  });
});

describe('ratings after completion', () => {
  it('each party rates the other once, and the rated user’s rating counts it', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    const path = `/v1/transactions/${deal.transaction.id}/ratings`;
    await expectRefused(client, deal, path, { ...as(deal, 'buyer'), score: 5 }, 409, 'INVALID_STATE', /once it is completed/);
    await fund(client, deal);
    expectOk(await deliver(client, deal));
    expectOk(await post(client, `/v1/milestones/${deal.milestoneIds[0]}/approve`, as(deal, 'buyer')));
    expect((await transaction(client, deal)).allowed_actions).toEqual({ buyer: ['rate'], seller: ['rate'] });

    for (const [body, field] of [[{ score: 6 }, 'score'], [{ score: 4.5 }, 'score'], [{ score: 0 }, 'score'], [{}, 'score']] as const) {
      await expectRefused(client, deal, path, { ...as(deal, 'buyer'), ...body }, 400, 'VALIDATION_ERROR', new RegExp(field));
    }
    const rated = TransactionWithMilestonesRecord.parse(expectOk(await post(client, path, { ...as(deal, 'buyer'), score: 5, comment: 'Fast and careful' })));
    expect(rated).toMatchObject({ has_buyer_rated: true, has_seller_rated: false, allowed_actions: { buyer: [], seller: ['rate'] } });
    expect(rated.seller.user.rating).toEqual({ average: 5, count: 1 });
    await expectRefused(client, deal, path, { ...as(deal, 'buyer'), score: 1 }, 409, 'INVALID_STATE', /already rated/);

    expectOk(await post(client, path, { ...as(deal, 'seller'), score: 4 }));
    const user = (id: string) => call('GET', `/v1/users/${id}`, { key: client.secretKey });
    expect(expectOk(await user(deal.buyer.id)).rating).toEqual({ average: 4, count: 1 });
    expect(expectOk(await user(deal.seller.id)).rating).toEqual({ average: 5, count: 1 });
    expect((await transaction(client, deal)).allowed_actions).toEqual({ buyer: [], seller: [] });
    expect((await eventTypes(client, deal)).filter((t) => t === 'transaction.rated')).toHaveLength(2);

    // A second completed deal with the same seller: the average is over both.
    const again = await newDeal(client, [500], { walletFunds: 1000 });
    const second = { ...again, seller: deal.seller };
    const tx = expectOk(
      await post(client, '/v1/transactions', {
        title: 'Again',
        description: 'Same seller',
        buyer_id: again.buyer.id,
        seller_id: deal.seller.id,
        milestones: [{ title: 'M', description: 'W', amount: 500, due_date: new Date(Date.now() + 864e6).toISOString() }],
      }),
    );
    const m = tx.milestones[0].id;
    expectOk(await post(client, `/v1/milestones/${m}/fund`, as(second, 'buyer')));
    expectOk(await post(client, `/v1/milestones/${m}/deliver`, { ...as(second, 'seller'), proofs_of_completion: [await uploadProof(client)] }));
    expectOk(await post(client, `/v1/milestones/${m}/approve`, as(second, 'buyer')));
    expectOk(await post(client, `/v1/transactions/${tx.id}/ratings`, { ...as(second, 'buyer'), score: 2 }));
    expect(expectOk(await user(deal.seller.id)).rating).toEqual({ average: 3.5, count: 2 });
  });

  it('a canceled transaction is never rated', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000]);
    expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'No longer needed' }));
    await expectRefused(client, deal, `/v1/transactions/${deal.transaction.id}/ratings`, { ...as(deal, 'seller'), score: 1 }, 409, 'INVALID_STATE', /CANCELED/);
  });
});

describe('a cancellation request nobody answers (3 business days)', () => {
  const advance = (client: TestClient, days: number) => post(client, '/v1/test-clock/advance', { days });

  it('a seller’s request is approved automatically: the buyer gets the escrow back', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    await fund(client, deal);
    const asked = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'seller'), reason: 'Out of stock' })));
    expect(asked.deadlines).toEqual([expect.objectContaining({ name: 'cancellation_response', counted_in: 'business_days', on_lapse: 'cancellation_approved' })]);
    const dueAt = new Date(asked.deadlines[0]!.due_at).getTime();
    expect(dueAt - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(dueAt - Date.now()).toBeLessThan(8 * 86_400_000);

    expectOk(await advance(client, 2));
    expect((await transaction(client, deal)).status).toBe('MILESTONE_IN_PROGRESS');
    expectOk(await advance(client, 7));
    const t = await transaction(client, deal);
    expect(t).toMatchObject({ status: 'CANCELED', ended_by: 'seller', end_reason: 'Out of stock', cancellation_request: null, deadlines: [] });
    expect(await walletBalance(client, deal.buyer.id)).toBe(5000);
    const logs = expectOk(await call('GET', `/v1/milestones/${deal.milestoneIds[0]}`, { key: client.secretKey })).milestone_logs as Array<{ actor: string; is_automatic: boolean; log_message: string }>;
    expect(logs.at(-1)).toMatchObject({ actor: 'system', is_automatic: true, log_message: expect.stringMatching(/canceled automatically \(the seller asked and the buyer did not answer in time\)/) });
    const events = expectOk(await call('GET', `/v1/events?transaction_id=${deal.transaction.id}&type=transaction.canceled`, { key: client.secretKey }));
    expect(events.events[0].data).toMatchObject({ actor: 'system', automatic: true });
    await expectLedgerBalanced();
  });

  it('a buyer’s request is declined automatically: the deal stands; a delivery meanwhile turns a seller’s into a decline', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    await fund(client, deal);
    const asked = TransactionWithMilestonesRecord.parse(expectOk(await post(client, `/v1/transactions/${deal.transaction.id}/cancel`, { ...as(deal, 'buyer'), reason: 'Changed my mind' })));
    expect(asked.deadlines).toEqual([expect.objectContaining({ name: 'cancellation_response', on_lapse: 'cancellation_declined' })]);
    expectOk(await advance(client, 9));
    const t = await transaction(client, deal);
    expect(t).toMatchObject({ status: 'MILESTONE_IN_PROGRESS', cancellation_request: null, deadlines: [] });
    expect(await walletBalance(client, deal.buyer.id)).toBeLessThan(5000);
    expect((await eventTypes(client, deal)).at(-1)).toBe('transaction.cancellation_declined');

    const other = await newDeal(client, [1000], { walletFunds: 5000 });
    await fund(client, other);
    expectOk(await post(client, `/v1/transactions/${other.transaction.id}/cancel`, { ...as(other, 'seller'), reason: 'Too busy' }));
    expectOk(await deliver(client, other));
    expect((await transaction(client, other)).deadlines).toEqual([expect.objectContaining({ name: 'cancellation_response', on_lapse: 'cancellation_declined' })]);
  });
});
