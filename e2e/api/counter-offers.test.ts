/**
 * The buyer's counter-offer in mediation (docs/decisions.md §13), over HTTP: the buyer offers the amount it is
 * prepared to pay, the seller accepts it (settled exactly as an approved amount) or proposes again, and
 * both sides' offers stay in one proposal history. Wallets and the ledger audit after each.
 */
import { describe, expect, it } from 'vitest';
import { DisputeWithPartiesRecord } from '@/lib/contracts/records';
import { call, expectError, expectLedgerBalanced, expectOk, newClient, snapshot, walletBalance, type TestClient } from './support/api';
import { stageMilestone } from './support/staging';

const patch = (client: TestClient, path: string, body: Record<string, unknown>) => call('PATCH', path, { key: client.secretKey, body });
const dispute = async (client: TestClient, id: string) => DisputeWithPartiesRecord.parse(expectOk(await call('GET', `/v1/dispute/${id}`, { key: client.secretKey })));

describe('a counter-offer', () => {
  it('answers the seller’s proposal; the seller accepts it and the escrow splits as for an approved amount', async () => {
    const client = await newClient();
    // A ₦1,000 milestone (the seller pays the fee) under dispute, the seller proposing ₦400.
    const s = await stageMilestone(client, 'proposed');
    const { buyer, seller } = s.deal;
    const buyerBefore = await walletBalance(client, buyer.id);

    const offered = DisputeWithPartiesRecord.parse(
      expectOk(await patch(client, `/v1/dispute/${s.disputeId}/counter-offer`, { buyer_id: buyer.id, amount: 250, reason: 'Only half of it arrived' })),
    );
    expect(offered).toMatchObject({ status: 'INTRA_PARTY_MEDIATION', dispute_amount_status: 'COUNTER_OFFERED', counter_offer_amount: 250, dispute_amount: 400 });
    expect(offered.proposals.map((p) => [p.proposed_by, p.amount, p.status, p.rejection_reason])).toEqual([
      ['seller', 400, 'REJECTED', 'Only half of it arrived'],
      ['buyer', 250, 'SUBMITTED', null],
    ]);
    expect(offered.allowed_actions).toEqual({ buyer: ['counter_offer', 'escalate'], seller: ['add_dispute_amount', 'accept_counter_offer', 'escalate', 'cancel'] });

    // The buyer cannot approve or reject its own offer; a seller's acceptance of nothing is refused.
    const before = await snapshot(client, s.deal);
    expectError(await patch(client, `/v1/dispute/${s.disputeId}/approve-dispute-amount`, { buyer_id: buyer.id }), 409, 'INVALID_STATE', /no proposed amount/);
    expectError(await patch(client, `/v1/dispute/${s.disputeId}/accept-counter-offer`, { seller_id: buyer.id }), 403, 'WRONG_PARTY');
    expect(await snapshot(client, s.deal)).toBe(before);

    const settled = DisputeWithPartiesRecord.parse(expectOk(await patch(client, `/v1/dispute/${s.disputeId}/accept-counter-offer`, { seller_id: seller.id })));
    expect(settled).toMatchObject({ status: 'RESOLVED', dispute_amount_status: 'APPROVED', dispute_amount: 250, resolution: 'agreement' });
    expect(settled.proposals.at(-1)).toMatchObject({ proposed_by: 'buyer', amount: 250, status: 'APPROVED' });
    // ₦250 to the seller less its fee share (1% of it), the other ₦750 back to the buyer.
    expect(await walletBalance(client, seller.id)).toBe(247.5);
    expect(await walletBalance(client, buyer.id)).toBe(buyerBefore + 750);
    expectError(await patch(client, `/v1/dispute/${s.disputeId}/counter-offer`, { buyer_id: buyer.id, amount: 100 }), 409, 'INVALID_STATE');
    const events = expectOk(await call('GET', `/v1/events?transaction_id=${s.deal.transaction.id}&limit=100`, { key: client.secretKey }));
    expect((events.events as Array<{ type: string }>).map((e) => e.type).slice(-2)).toEqual(['dispute.counter_offered', 'dispute.resolved']);
    await expectLedgerBalanced();
  });

  it('can come before any proposal, and the seller may propose again instead of accepting', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'disputed');
    const { buyer, seller } = s.deal;
    expectOk(await patch(client, `/v1/dispute/${s.disputeId}/counter-offer`, { buyer_id: buyer.id, amount: 100 }));
    // The buyer revises its own offer.
    expectOk(await patch(client, `/v1/dispute/${s.disputeId}/counter-offer`, { buyer_id: buyer.id, amount: 150 }));
    const proposed = DisputeWithPartiesRecord.parse(expectOk(await patch(client, `/v1/dispute/${s.disputeId}/add-dispute-amount`, { seller_id: seller.id, dispute_amount: 700 })));
    expect(proposed).toMatchObject({ dispute_amount_status: 'SUBMITTED', dispute_amount: 700 });
    expect(proposed.proposals.map((p) => [p.proposed_by, p.amount, p.status])).toEqual([
      ['buyer', 100, 'SUPERSEDED'],
      ['buyer', 150, 'SUPERSEDED'],
      ['seller', 700, 'SUBMITTED'],
    ]);
    expectError(await patch(client, `/v1/dispute/${s.disputeId}/accept-counter-offer`, { seller_id: seller.id }), 409, 'INVALID_STATE', /no counter-offer/);
    expect((await dispute(client, s.disputeId!)).status).toBe('INTRA_PARTY_MEDIATION');
    await expectLedgerBalanced();
  });

  it('is refused above what the seller could be paid, and after mediation', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'escalated');
    const before = await snapshot(client, s.deal);
    expectError(await patch(client, `/v1/dispute/${s.disputeId}/counter-offer`, { buyer_id: s.deal.buyer.id, amount: 100 }), 409, 'INVALID_STATE', /no longer in intra-party mediation/);
    expect(await snapshot(client, s.deal)).toBe(before);

    const open = await stageMilestone(client, 'disputed');
    const openBefore = await snapshot(client, open.deal);
    expectError(await patch(client, `/v1/dispute/${open.disputeId}/counter-offer`, { buyer_id: open.deal.buyer.id, amount: 1000.01 }), 400, 'DISPUTE_AMOUNT_OUT_OF_RANGE');
    expectError(await patch(client, `/v1/dispute/${open.disputeId}/counter-offer`, { buyer_id: open.deal.buyer.id, amount: -1 }), 400, 'VALIDATION_ERROR');
    expect(await snapshot(client, open.deal)).toBe(openBefore);
  });
});

describe('races', () => {
  it('accepting a counter-offer against a new seller proposal, 20 disputes at once: exactly one wins each', async () => {
    const client = await newClient();
    const staged = await Promise.all(Array.from({ length: 20 }, () => stageMilestone(client, 'counterOffered')));
    const outcomes = await Promise.all(
      staged.map(async (s) => {
        const [accept, propose] = await Promise.all([
          patch(client, `/v1/dispute/${s.disputeId}/accept-counter-offer`, { seller_id: s.deal.seller.id }),
          patch(client, `/v1/dispute/${s.disputeId}/add-dispute-amount`, { seller_id: s.deal.seller.id, dispute_amount: 900 }),
        ]);
        return { s, accept: accept.status, propose: propose.status };
      }),
    );
    for (const { s, accept, propose } of outcomes) {
      expect([accept, propose].sort()).toEqual([200, 409]);
      const d = await dispute(client, s.disputeId!);
      if (accept === 200) expect(d).toMatchObject({ status: 'RESOLVED', dispute_amount: 250 });
      else expect(d).toMatchObject({ status: 'INTRA_PARTY_MEDIATION', dispute_amount_status: 'SUBMITTED', dispute_amount: 900 });
    }
    await expectLedgerBalanced();
  });
});
