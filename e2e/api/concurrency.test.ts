import { describe, expect, inject, it } from 'vitest';
import { call, expectLedgerBalanced, expectOk, newClient, newDeal, uploadProof, walletBalance } from './support/api';

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
});
