import { describe, expect, inject, it } from 'vitest';
import { call, expectLedgerBalanced, expectOk, newClient, newDeal, newUser, uploadProof, walletBalance } from './support/api';

/**
 * Racing requests on one milestone or wallet: the transaction-row lock must let exactly one through.
 * Meaningful on PostgreSQL (real parallel connections); on PGlite the same requests are serialised.
 */
describe(`concurrent requests (${inject('database')})`, () => {
  it('20 simultaneous approve/reject requests on one milestone: exactly one succeeds and money moves once', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [100_000], { walletFunds: 100_000 });
    const id = deal.milestoneIds[0]!;
    const key = client.secretKey;
    const proof = await uploadProof(client);
    expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key, body: { buyer_id: deal.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? call('POST', `/v1/milestones/${id}/approve`, { key, body: { buyer_id: deal.buyer.id } })
          : call('POST', `/v1/milestones/${id}/reject`, { key, body: { buyer_id: deal.buyer.id, rejection_reason: 'race', proofs_of_return: [proof] } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = results.find((r) => r.status === 200)!.body.data;
    const milestone = expectOk(await call('GET', `/v1/milestones/${id}`, { key }));
    expect(milestone.status).toBe(winner.status);
    if (winner.status === 'COMPLETED') {
      expect(await walletBalance(client, deal.seller.id)).toBe(99_000);
      expect(milestone.milestone_escrow.balance).toBe(0);
    } else {
      expect(winner.status).toBe('DELIVERY_RETURNED_AWAITING_APPROVAL');
      expect(await walletBalance(client, deal.seller.id)).toBe(0);
      expect(milestone.milestone_escrow.balance).toBe(100_000);
    }
    expect(milestone.milestone_logs).toHaveLength(4);
    await expectLedgerBalanced();
  });

  it('one wallet funding many milestones at once never goes below zero', async () => {
    const client = await newClient();
    // ₦30,000 in the wallet and ten ₦10,000 transactions of the same buyer racing to fund.
    const first = await newDeal(client, [10_000], { walletFunds: 30_000 });
    const deals = [first];
    for (let i = 0; i < 9; i++) {
      const t = expectOk(
        await call('POST', '/v1/transactions', {
          key: client.secretKey,
          body: {
            title: `Deal ${i}`,
            description: 'race',
            buyer_id: first.buyer.id,
            seller_id: first.seller.id,
            milestones: [{ title: 'M', description: 'D', amount: 10_000, due_date: new Date(Date.now() + 86_400_000).toISOString() }],
          },
        }),
      );
      deals.push({ ...first, transaction: t, milestoneIds: [t.milestones[0].id] });
    }
    const results = await Promise.all(
      deals.map((d) => call('POST', `/v1/milestones/${d.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: first.buyer.id } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await walletBalance(client, first.buyer.id)).toBe(0);
    await expectLedgerBalanced();
  });

  it("a client's payouts and its sellers' top-ups all at once: every one succeeds, each seller is paid exactly, the fee account balances", async () => {
    const client = await newClient();
    const key = client.secretKey;
    const proof = await uploadProof(client);
    const sellers = [await newUser(client, 'SellerA'), await newUser(client, 'SellerB'), await newUser(client, 'SellerC')];
    // Twelve deals, four per seller, each funded and delivered: ready to be approved.
    const milestones = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const seller = sellers[i % 3]!;
        const buyer = await newUser(client, `Buyer${i}`);
        await call('POST', '/v1/wallets/fund', { key, body: { user_id: buyer.id, amount: 10_000 } });
        const t = expectOk(
          await call('POST', '/v1/transactions', {
            key,
            body: {
              title: `Payout ${i}`,
              description: 'race',
              buyer_id: buyer.id,
              seller_id: seller.id,
              milestones: [{ title: 'M', description: 'D', amount: 10_000, due_date: new Date(Date.now() + 86_400_000).toISOString() }],
            },
          }),
        );
        const id: string = t.milestones[0].id;
        expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key, body: { buyer_id: buyer.id } }));
        expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key, body: { seller_id: seller.id, proofs_of_completion: [proof] } }));
        return { id, buyerId: buyer.id };
      }),
    );

    const results = await Promise.all([
      ...milestones.map((m) => call('POST', `/v1/milestones/${m.id}/approve`, { key, body: { buyer_id: m.buyerId } })),
      ...sellers.map((seller) => call('POST', '/v1/wallets/fund', { key, body: { user_id: seller.id, amount: 500 } })),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    // Four payouts of ₦10,000 less the 1% fee, and the top-up.
    for (const seller of sellers) expect(await walletBalance(client, seller.id)).toBe(4 * 9_900 + 500);
    await expectLedgerBalanced();
  });

  it('the same milestone funded 10 times at once is funded once', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [5_000], { walletFunds: 50_000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await walletBalance(client, deal.buyer.id)).toBe(45_000);
    await expectLedgerBalanced();
  });

  it('the seller racing to approve and reject a return, and to open disputes: one outcome, money moved at most once', async () => {
    const client = await newClient();
    const key = client.secretKey;
    const proof = await uploadProof(client);
    const deal = await newDeal(client, [20_000, 20_000], { walletFunds: 40_000 });
    const [m1] = deal.milestoneIds;
    expectOk(await call('POST', `/v1/milestones/${m1}/fund`, { key, body: { buyer_id: deal.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${m1}/deliver`, { key, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
    expectOk(await call('POST', `/v1/milestones/${m1}/reject`, { key, body: { buyer_id: deal.buyer.id, rejection_reason: 'race', proofs_of_return: [proof] } }));

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('PATCH', `/v1/milestones/${m1}/reject/${i % 2 === 0 ? 'approve' : 'disapprove'}`, { key, body: { seller_id: deal.seller.id } }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const winner = answers.find((r) => r.status === 200)!.body.data.status;
    if (winner === 'DELIVERY_RETURN_APPROVED') {
      expect(await walletBalance(client, deal.buyer.id)).toBe(40_000);
    } else {
      expect(winner).toBe('DELIVERY_RETURN_REJECTED');
      const disputes = await Promise.all(
        Array.from({ length: 8 }, () =>
          call('POST', '/v1/dispute/create', { key, body: { description: 'race', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: m1 } }),
        ),
      );
      expect(disputes.filter((r) => r.status === 200)).toHaveLength(1);
      expect(disputes.filter((r) => r.status === 409)).toHaveLength(7);
      expect(expectOk(await call('GET', `/v1/dispute?milestone_id=${m1}`, { key })).disputes).toHaveLength(1);
    }
    await expectLedgerBalanced();
  });

  it('the buyer and a stranger funding the same milestone at once: only the buyer, once', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [7_000], { walletFunds: 20_000 });
    const stranger = await newUser(client, 'Stranger');
    await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: stranger.id, amount: 20_000 } });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: i % 2 ? stranger.id : deal.buyer.id } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 403)).toHaveLength(5);
    expect(await walletBalance(client, deal.buyer.id)).toBe(13_000);
    expect(await walletBalance(client, stranger.id)).toBe(20_000);
    await expectLedgerBalanced();
  });
});
