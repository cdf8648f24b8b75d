import { describe, expect, it } from 'vitest';
import { OverviewRecord } from '@/lib/contracts/reports';
import { stageMilestone } from './support/staging';
import { call, expectError, expectLedgerBalanced, expectOk, newClient, newDeal, operatorKey, uploadProof, walletBalance, type TestClient } from './support/api';

type Deal = Awaited<ReturnType<typeof newDeal>>;

const overview = async (client: TestClient, query = '') => OverviewRecord.parse(expectOk(await call('GET', `/v1/reports/overview${query}`, { key: client.secretKey })));
const kobo = (naira: number) => Math.round(naira * 100);
const sumOf = (values: number[]) => values.reduce((a, b) => a + kobo(b), 0) / 100;
const totals = (report: OverviewRecord) => ({
  funded: sumOf(report.months.map((m) => m.funded)),
  released: sumOf(report.months.map((m) => m.released)),
  refunded: sumOf(report.months.map((m) => m.refunded)),
  fees: sumOf(report.months.map((m) => m.fees)),
});

async function escrowBalances(client: TestClient, deals: Deal[]): Promise<number> {
  const balances = await Promise.all(
    deals.flatMap((deal) => deal.milestoneIds.map(async (id) => expectOk(await call('GET', `/v1/milestones/${id}`, { key: client.secretKey })).milestone_escrow.balance as number)),
  );
  return sumOf(balances);
}

describe('GET /v1/reports/overview', () => {
  it("agrees with the wallets and escrows the API shows, and never counts another client's money", async () => {
    const client = await newClient();
    const other = await newClient();
    const key = client.secretKey;
    const step = async (method: string, path: string, body?: Record<string, unknown>) => expectOk(await call(method, path, { key, body }));

    const empty = await overview(client);
    expect(empty).toMatchObject({ client_id: client.id, currency: 'NGN', held_in_escrow: 0, released_this_month: 0, refunded_this_month: 0, fees_this_month: 0, open_disputes: 0, late_disputes: 0 });
    expect(empty.months).toHaveLength(6);
    expect(empty.months.at(-1)!.month).toBe(empty.month);

    // Released: funded, delivered, approved (1% fee, the seller pays it).
    const released = await newDeal(client, [100_000], { walletFunds: 150_000 });
    const proof = await uploadProof(client);
    await step('POST', `/v1/milestones/${released.milestoneIds[0]}/fund`, { buyer_id: released.buyer.id });
    await step('POST', `/v1/milestones/${released.milestoneIds[0]}/deliver`, { seller_id: released.seller.id, proofs_of_completion: [proof] });
    await step('POST', `/v1/milestones/${released.milestoneIds[0]}/approve`, { buyer_id: released.buyer.id });
    // Refunded: the buyer pays the fee; the seller asks to cancel, the buyer agrees.
    const refunded = await newDeal(client, [20_000], { walletFunds: 30_000, commission_payer: 'BUYER_100' });
    await step('POST', `/v1/milestones/${refunded.milestoneIds[0]}/fund`, { buyer_id: refunded.buyer.id });
    await step('POST', `/v1/transactions/${refunded.transaction.id}/cancel`, { seller_id: refunded.seller.id, reason: 'Out of stock' });
    await step('POST', `/v1/transactions/${refunded.transaction.id}/cancel/approve`, { buyer_id: refunded.buyer.id });
    // Held: one dispute still open, one settled by agreement (the seller gets 400 of 1,000, less its fee).
    const open = await stageMilestone(client, 'disputed');
    const settled = await stageMilestone(client, 'resolved');
    // Money of another client, held and released, that must not show.
    await stageMilestone(other, 'completed');
    await stageMilestone(other, 'disputed');

    const deals: Deal[] = [released, refunded, open.deal, settled.deal];
    const report = await overview(client);
    const sums = totals(report);
    expect(report.released_this_month).toBe(report.months.at(-1)!.released);
    expect(report.refunded_this_month).toBe(report.months.at(-1)!.refunded);
    expect(report.fees_this_month).toBe(report.months.at(-1)!.fees);
    expect(report.funded_this_month).toBe(report.months.at(-1)!.funded);

    // Held now: the escrow balances the milestones show.
    expect(report.held_in_escrow).toBe(await escrowBalances(client, deals));
    expect(report.held_in_escrow).toBe(1000); // the open dispute's milestone: the rest was released, refunded or never funded
    // Released: what the sellers' wallets received (they started empty and only ever got releases).
    const sellers = await Promise.all(deals.map((d) => walletBalance(client, d.seller.id)));
    expect(sums.released).toBe(sumOf(sellers));
    expect(sums.released).toBe(99_000 + 396);
    // Refunded: what came back to the buyers: their balance is what they were given, less what they funded, plus refunds.
    const buyers = await Promise.all(deals.map((d) => walletBalance(client, d.buyer.id)));
    const given = 150_000 + 30_000 + 10_000 + 10_000;
    expect(sumOf(buyers)).toBe((kobo(given) - kobo(sums.funded) + kobo(sums.refunded)) / 100);
    expect(sums.refunded).toBe(20_200 + 600);
    // Fees: what left escrow that went neither to a seller nor back to a buyer.
    expect(sums.fees).toBe((kobo(sums.funded) - kobo(report.held_in_escrow) - kobo(sums.released) - kobo(sums.refunded)) / 100);
    expect(sums.fees).toBe(1000 + 4);
    expect(report).toMatchObject({ open_disputes: 1, late_disputes: 0 });

    // The operator sees the same for this client, and more for all of them.
    const asOperator = OverviewRecord.parse(expectOk(await call('GET', `/v1/operator/reports/overview?client_id=${client.id}`, { key: operatorKey() })));
    expect({ ...asOperator, as_of: '' }).toEqual({ ...report, as_of: '' });
    const everyone = OverviewRecord.parse(expectOk(await call('GET', '/v1/operator/reports/overview?months=2', { key: operatorKey() })));
    expect(everyone.client_id).toBeNull();
    expect(everyone.months).toHaveLength(2);
    expect(everyone.held_in_escrow).toBeGreaterThanOrEqual(report.held_in_escrow + 1000);

    const others = await overview(other);
    expect(others.held_in_escrow).toBe(1000);
    expect(others.open_disputes).toBe(1);
    expect(totals(others).released).toBe(990 + 1980);
    await expectLedgerBalanced();
  });

  it('counts a dispute late once it has waited for a verdict over 5 days', async () => {
    const client = await newClient();
    const staged = await stageMilestone(client, 'arbitration');
    const dispute = expectOk(await call('GET', `/v1/dispute/${staged.disputeId}`, { key: client.secretKey }));
    const before = await overview(client);
    const lateAlready = Date.parse(dispute.evidence_submission_end_date) <= Date.parse(before.as_of) - 5 * 86_400_000;
    expect(before).toMatchObject({ open_disputes: 1, late_disputes: lateAlready ? 1 : 0, held_in_escrow: 1000 });
    expect(totals(before).funded).toBe(1000);
    await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { days: 6 } });
    const after = await overview(client);
    expect(after).toMatchObject({ open_disputes: 1, late_disputes: 1, held_in_escrow: 1000 });
  });

  it('answers 401 without a key and 400 on a bad query', async () => {
    const client = await newClient();
    expectError(await call('GET', '/v1/reports/overview'), 401, 'UNAUTHORIZED');
    expectError(await call('GET', '/v1/operator/reports/overview', { key: client.secretKey }), 401, 'UNAUTHORIZED');
    expectError(await call('GET', '/v1/reports/overview?months=0', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/reports/overview?months=abc', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/reports/overview?months=25', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/operator/reports/overview?client_id=nope', { key: operatorKey() }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/operator/reports/overview?client_id=00000000-0000-4000-8000-000000000000', { key: operatorKey() }), 404, 'NOT_FOUND');
    expect((await overview(client, '?months=12')).months).toHaveLength(12);
  });
});
