/**
 * Statements and where a payout came from (docs/decisions.md §18), over HTTP: a customer who is buyer in one
 * deal and seller in another reads every line of the wallet, as JSON and as CSV, and each payout names the
 * credits it pays out, first in first out.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayoutListRecord, PayoutRecord } from '@/lib/contracts/payouts';
import { BankAccountRecord } from '@/lib/contracts/records';
import { StatementRecord } from '@/lib/contracts/wallets';
import { csvRows } from '../support/csv-rows';
import { call, expectError, expectLedgerBalanced, expectOk, fundWallet, inDays, newClient, newUser, uploadProof, walletBalance, type TestClient } from './support/api';

const GTBANK = { account_number: '0016563228', bank_code: '058' };

function statement(client: TestClient, userId: string, query = '', headers: Record<string, string> = {}) {
  return call('GET', `/v1/wallets/${userId}/statement${query}`, { key: client.secretKey, headers });
}

async function statementOf(client: TestClient, userId: string, query = '') {
  return StatementRecord.parse(expectOk(await statement(client, userId, query)));
}

const kobo = (naira: number) => Math.round(naira * 100);
const sumKobo = (amounts: number[]) => amounts.reduce((sum, a) => sum + kobo(a), 0);
/** Naira added in kobo, so no float remainder reaches an amount. */
const nairaSum = (...amounts: number[]) => sumKobo(amounts) / 100;

/** A deal of one milestone between two existing users. */
async function dealBetween(client: TestClient, buyerId: string, sellerId: string, amount: number) {
  const transaction = expectOk(
    await call('POST', '/v1/transactions', {
      key: client.secretKey,
      body: {
        title: 'Statement deal',
        description: 'A deal made by a test',
        buyer_id: buyerId,
        seller_id: sellerId,
        milestones: [{ title: 'The work', description: 'Work', amount, due_date: inDays(10) }],
      },
    }),
  );
  return { transactionId: transaction.id as string, milestoneId: transaction.milestones[0].id as string };
}

async function step(client: TestClient, method: string, path: string, body: Record<string, unknown>) {
  return expectOk(await call(method, path, { key: client.secretKey, body }));
}

/** Funds, delivers and accepts a deal's milestone: the seller's release. */
async function released(client: TestClient, buyerId: string, sellerId: string, amount: number) {
  const deal = await dealBetween(client, buyerId, sellerId, amount);
  const proof = await uploadProof(client);
  await step(client, 'POST', `/v1/milestones/${deal.milestoneId}/fund`, { buyer_id: buyerId });
  await step(client, 'POST', `/v1/milestones/${deal.milestoneId}/deliver`, { seller_id: sellerId, proofs_of_completion: [proof] });
  await step(client, 'POST', `/v1/milestones/${deal.milestoneId}/approve`, { buyer_id: buyerId });
  return deal;
}

async function saveAccount(client: TestClient, userId: string) {
  return BankAccountRecord.parse(expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: userId, ...GTBANK } })));
}

async function payOut(client: TestClient, userId: string, amount: number) {
  return PayoutRecord.parse(expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: userId, amount } })));
}

async function clockNow(client: TestClient): Promise<string> {
  return expectOk(await call('GET', '/v1/test-clock', { key: client.secretKey })).now;
}

describe('GET /v1/wallets/{user_id}/statement', () => {
  it('lists every kind of line a customer has, buyer in one deal and seller in another: opening + lines = closing', async () => {
    const client = await newClient();
    const customer = await newUser(client, 'Customer');
    const partner = await newUser(client, 'Partner');
    await fundWallet(client, customer.id, 10_000);
    await fundWallet(client, partner.id, 10_000);

    // Bought from the partner, then returned: escrow money out and back.
    const bought = await dealBetween(client, customer.id, partner.id, 3_000);
    const proof = await uploadProof(client);
    await step(client, 'POST', `/v1/milestones/${bought.milestoneId}/fund`, { buyer_id: customer.id });
    await step(client, 'POST', `/v1/milestones/${bought.milestoneId}/deliver`, { seller_id: partner.id, proofs_of_completion: [proof] });
    await step(client, 'POST', `/v1/milestones/${bought.milestoneId}/reject`, { buyer_id: customer.id, rejection_reason: 'Not as described', proofs_of_return: [proof] });
    await step(client, 'PATCH', `/v1/milestones/${bought.milestoneId}/reject/approve`, { seller_id: partner.id });
    // Sold to the partner: a release.
    const sold = await released(client, partner.id, customer.id, 5_000);
    // Money added by card: a checkout line.
    const checkout = expectOk(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: customer.id, amount: 500 } }));
    expectOk(await call('POST', `/v1/test-helpers/checkouts/${checkout.id}/pay`, { key: client.secretKey }));
    // Bought again; the seller gives part of it back (§17).
    const partRefunded = await dealBetween(client, customer.id, partner.id, 1_000);
    await step(client, 'POST', `/v1/milestones/${partRefunded.milestoneId}/fund`, { buyer_id: customer.id });
    await step(client, 'POST', `/v1/milestones/${partRefunded.milestoneId}/refund`, { seller_id: partner.id, amount: 400, reason: 'One item short' });
    // A payout that fails comes back; a second one stays out.
    await saveAccount(client, customer.id);
    const failed = await payOut(client, customer.id, 2_000);
    expectOk(await call('POST', `/v1/test-helpers/payouts/${failed.id}/fail`, { key: client.secretKey, body: {} }));
    const kept = await payOut(client, customer.id, 1_000);

    const s = await statementOf(client, customer.id);
    expect(s).toMatchObject({ user_id: customer.id, wallet_id: customer.wallet.id, currency: 'NGN', opening_balance: 0 });
    expect(s.lines.map((l) => l.kind)).toEqual(['funding', 'escrow_funded', 'escrow_refunded', 'release', 'checkout', 'escrow_funded', 'escrow_refunded', 'payout', 'payout_returned', 'payout']);
    expect(s.lines.find((l) => l.kind === 'checkout')).toMatchObject({ amount: 500, checkout_id: checkout.id, milestone_id: null });
    expect(s.lines.filter((l) => l.milestone_id === partRefunded.milestoneId).map((l) => [l.kind, l.amount])).toEqual([
      ['escrow_funded', -1_000],
      ['escrow_refunded', 400],
    ]);
    expect(s.lines.find((l) => l.kind === 'escrow_funded')).toMatchObject({ transaction_id: bought.transactionId, milestone_id: bought.milestoneId, payout_id: null, checkout_id: null });
    expect(s.lines.find((l) => l.kind === 'escrow_refunded')).toMatchObject({ transaction_id: bought.transactionId, milestone_id: bought.milestoneId });
    expect(s.lines.find((l) => l.kind === 'release')).toMatchObject({ transaction_id: sold.transactionId, milestone_id: sold.milestoneId });
    expect(s.lines.filter((l) => l.payout_id).map((l) => [l.kind, l.payout_id])).toEqual([
      ['payout', failed.id],
      ['payout_returned', failed.id],
      ['payout', kept.id],
    ]);
    for (const line of s.lines) expect(line.amount > 0).toBe(!['escrow_funded', 'payout'].includes(line.kind));

    // The balance runs through the lines to the wallet's own balance.
    let running = kobo(s.opening_balance);
    for (const line of s.lines) {
      running += kobo(line.amount);
      expect(kobo(line.balance_after)).toBe(running);
    }
    expect(kobo(s.closing_balance)).toBe(running);
    expect(s.closing_balance).toBe(await walletBalance(client, customer.id));
    expect(kobo(s.total_in)).toBe(sumKobo(s.lines.filter((l) => l.amount > 0).map((l) => l.amount)));
    expect(kobo(s.total_out)).toBe(-sumKobo(s.lines.filter((l) => l.amount < 0).map((l) => l.amount)));
    expect(kobo(s.opening_balance) + kobo(s.total_in) - kobo(s.total_out)).toBe(kobo(s.closing_balance));

    // The default period is the Lagos month the client's clock is in.
    const now = Date.parse(await clockNow(client));
    expect(Date.parse(s.from)).toBeLessThanOrEqual(now);
    expect(Date.parse(s.to)).toBeGreaterThan(now);
    expect(new Date(Date.parse(s.from) + 3_600_000).toISOString()).toMatch(/-01T00:00:00\.000Z$/);
    expect(new Date(Date.parse(s.to) + 3_600_000).toISOString()).toMatch(/-01T00:00:00\.000Z$/);

    // As CSV: a header row and the same lines, amounts with two decimals; the reference declares both answers.
    const doc = (await call('GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/v1/wallets/{user_id}/statement'].get.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
    const csv = await statement(client, customer.id, '', { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = csvRows(String(csv.body));
    expect(header).toEqual(['at', 'kind', 'amount', 'balance_after', 'description', 'transaction_id', 'milestone_id', 'payout_id', 'checkout_id']);
    expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5] || null, r[6] || null, r[7] || null, r[8] || null])).toEqual(
      s.lines.map((l) => [l.at, l.kind, l.amount.toFixed(2), l.balance_after.toFixed(2), l.description, l.transaction_id, l.milestone_id, l.payout_id, l.checkout_id]),
    );
    for (const row of rows) expect(row[2]).toMatch(/^-?\d+\.\d{2}$/);
    expect(sumKobo(rows.map((r) => Number(r[2])))).toBe(kobo(s.total_in) - kobo(s.total_out));
    await expectLedgerBalanced();
  });

  it('a period that leaves out earlier lines opens with the balance they left', async () => {
    const client = await newClient();
    const customer = await newUser(client, 'Customer');
    await fundWallet(client, customer.id, 1_000);
    const before = Date.parse(await clockNow(client));
    expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds: 3_600 } }));
    await fundWallet(client, customer.id, 250.5);
    const between = new Date(before + 1_800_000).toISOString();

    const later = await statementOf(client, customer.id, `?from=${between}`);
    expect(later).toMatchObject({ from: between, opening_balance: 1_000, closing_balance: 1250.5, total_in: 250.5, total_out: 0 });
    expect(later.lines.map((l) => [l.kind, l.amount, l.balance_after])).toEqual([['funding', 250.5, 1250.5]]);

    const earlier = await statementOf(client, customer.id, `?from=2020-01-01&to=${between}`);
    expect(earlier).toMatchObject({ from: '2019-12-31T23:00:00.000Z', to: between, opening_balance: 0, closing_balance: 1_000 });
    expect(earlier.lines.map((l) => l.kind)).toEqual(['funding']);

    // A date as `to` is a Lagos day, included to its end.
    const lagosToday = new Date(Date.parse(await clockNow(client)) + 3_600_000).toISOString().slice(0, 10);
    const today = await statementOf(client, customer.id, `?from=2020-01-01&to=${lagosToday}`);
    expect(today.closing_balance).toBe(1250.5);
    expect(Date.parse(today.to) - Date.parse(`${lagosToday}T00:00:00.000Z`)).toBe(23 * 3_600_000);
    await expectLedgerBalanced();
  });

  it('refuses bad periods with 400 naming the field, and another client’s user with 404', async () => {
    const client = await newClient();
    const stranger = await newClient();
    const customer = await newUser(client, 'Customer');
    for (const query of ['?from=2026-02-30', '?from=soon', '?to=2026-13-01', '?from=2026-11-01T25:00:00Z', '?to=1700000000']) {
      const error = expectError(await statement(client, customer.id, query), 400, 'VALIDATION_ERROR', /date YYYY-MM-DD/);
      expect(error.errors?.[0]?.field).toBe(query.slice(1, query.indexOf('=')));
    }
    const backwards = expectError(await statement(client, customer.id, '?from=2026-11-10&to=2026-11-01'), 400, 'VALIDATION_ERROR', /after/);
    expect(backwards.errors).toEqual([{ field: 'from', message: 'must not be after to' }]);
    expectError(await statement(stranger, customer.id), 404, 'NOT_FOUND');
    expectError(await statement(stranger, customer.id, '', { accept: 'text/csv' }), 404, 'NOT_FOUND');
    expectError(await statement(client, randomUUID()), 404, 'NOT_FOUND');
    expectError(await statement(client, 'not-a-user'), 400, 'VALIDATION_ERROR');
  });
});

describe('payout sources', () => {
  it('name the credits a payout pays out, first in first out across two deals, and give a failed payout’s back', async () => {
    const client = await newClient();
    const seller = await newUser(client, 'Seller');
    const buyer = await newUser(client, 'Buyer');
    await fundWallet(client, buyer.id, 50_000);
    await saveAccount(client, seller.id);
    const first = await released(client, buyer.id, seller.id, 4_000);
    const fromFirst = await walletBalance(client, seller.id);
    const second = await released(client, buyer.id, seller.id, 6_000);
    const fromSecond = nairaSum(await walletBalance(client, seller.id), -fromFirst);

    // Takes all of the first release and some of the second.
    const created = await payOut(client, seller.id, nairaSum(fromFirst, 1_000));
    expect(created.sources.map((s) => [s.kind, s.transaction_id, s.milestone_id, s.amount])).toEqual([
      ['release', first.transactionId, first.milestoneId, fromFirst],
      ['release', second.transactionId, second.milestoneId, 1_000],
    ]);
    expect(sumKobo(created.sources.map((s) => s.amount))).toBe(kobo(created.amount));
    const fetched = PayoutRecord.parse(expectOk(await call('GET', `/v1/payouts/${created.id}`, { key: client.secretKey })));
    expect(fetched.sources).toEqual(created.sources);

    // It fails: its credits are the oldest again, so the next payout draws on the first deal first.
    expectOk(await call('POST', `/v1/test-helpers/payouts/${created.id}/fail`, { key: client.secretKey, body: {} }));
    const next = await payOut(client, seller.id, 500);
    expect(next.sources.map((s) => [s.transaction_id, s.amount])).toEqual([[first.transactionId, 500]]);
    const rest = await payOut(client, seller.id, nairaSum(fromFirst, fromSecond, -500));
    expect(rest.sources.map((s) => [s.transaction_id, s.amount])).toEqual([
      [first.transactionId, nairaSum(fromFirst, -500)],
      [second.transactionId, fromSecond],
    ]);

    const list = PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?user_id=${seller.id}`, { key: client.secretKey })));
    expect(list.payouts.map((p) => p.id)).toEqual([rest.id, next.id, created.id]);
    for (const payout of list.payouts) expect(sumKobo(payout.sources.map((s) => s.amount))).toBe(kobo(payout.amount));
    expect(list.payouts.find((p) => p.id === rest.id)!.sources).toEqual(rest.sources);
    expect(await walletBalance(client, seller.id)).toBe(0);
    await expectLedgerBalanced();
  });
});
