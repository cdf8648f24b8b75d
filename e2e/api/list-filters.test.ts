/**
 * The search, created-day and amount filters of the transaction, user and payout lists (issue #27):
 * days are Lagos days with both ends included, amounts naira with both ends included, and a bad value
 * is a 400 naming its field.
 */
import { describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { PayoutListRecord } from '@/lib/contracts/payouts';
import { TransactionListRecord, UserListRecord } from '@/lib/contracts/records';
import { call, expectError, expectOk, fundWallet, inDays, newClient, newUser, type TestClient } from './support/api';

function expectFieldError(res: Awaited<ReturnType<typeof call>>, field: string) {
  const error = expectError(res, 400, 'VALIDATION_ERROR');
  ErrorEnvelope.parse(res.body);
  expect((error.errors ?? []).map((e) => e.field)).toContain(field);
}

async function advanceDays(client: TestClient, days: number) {
  expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds: days * 86_400 } }));
}

/** The Lagos day (UTC+1) of an ISO instant. */
const lagosDay = (instant: string) => new Date(Date.parse(instant) + 3_600_000).toISOString().slice(0, 10);

async function deal(client: TestClient, title: string, amount: number) {
  const buyer = await newUser(client, 'Buyer');
  const seller = await newUser(client, 'Seller');
  return expectOk(
    await call('POST', '/v1/transactions', {
      key: client.secretKey,
      body: { title, description: 'A deal', buyer_id: buyer.id, seller_id: seller.id, milestones: [{ title: 'Milestone 1', description: 'Work', amount, due_date: inDays(30) }] },
    }),
  ) as { id: string; created_at: string };
}

describe('GET /v1/transactions filters', () => {
  it('finds by title, created day and amount, and counts only what matches', async () => {
    const client = await newClient();
    const early = await deal(client, 'Cement 100% bags', 1500);
    await advanceDays(client, 2);
    const late = await deal(client, 'Cement lorry', 90_000.5);
    const other = await deal(client, 'Generator', 40_000);
    const list = async (query: string) => {
      const res = TransactionListRecord.parse(expectOk(await call('GET', `/v1/transactions?${query}`, { key: client.secretKey })));
      return { ids: res.transactions.map((t) => t.id), total: res.pagination.total };
    };

    expect(await list('search=cement')).toEqual({ ids: [late.id, early.id], total: 2 });
    // % and _ are the text itself, not patterns.
    expect(await list('search=100%25')).toEqual({ ids: [early.id], total: 1 });
    expect(await list('search=_')).toEqual({ ids: [], total: 0 });
    expect(await list(`created_from=${lagosDay(late.created_at)}`)).toEqual({ ids: [other.id, late.id], total: 2 });
    expect(await list(`created_to=${lagosDay(early.created_at)}`)).toEqual({ ids: [early.id], total: 1 });
    expect(await list(`created_from=${lagosDay(early.created_at)}&created_to=${lagosDay(early.created_at)}`)).toEqual({ ids: [early.id], total: 1 });
    expect(await list('amount_min=40000&amount_max=90000.5')).toEqual({ ids: [other.id, late.id], total: 2 });
    expect(await list('amount_max=1500')).toEqual({ ids: [early.id], total: 1 });
    expect(await list('search=cement&amount_min=2000')).toEqual({ ids: [late.id], total: 1 });
  });

  it('refuses a bad day, amount or search with 400 naming the field', async () => {
    const client = await newClient();
    const get = (query: string) => call('GET', `/v1/transactions?${query}`, { key: client.secretKey });
    expectFieldError(await get('created_from=2026-02-30'), 'created_from');
    expectFieldError(await get('created_to=26-11-01'), 'created_to');
    expectFieldError(await get('amount_min=-5'), 'amount_min');
    expectFieldError(await get('amount_max=1.234'), 'amount_max');
    expectFieldError(await get('amount_min=abc'), 'amount_min');
    expectFieldError(await get(`search=${'x'.repeat(101)}`), 'search');
  });
});

describe('GET /v1/users filters', () => {
  it('finds by created day, with the search', async () => {
    const client = await newClient();
    const first = await newUser(client, 'Chidi');
    await advanceDays(client, 2);
    const second = await newUser(client, 'Chidi');
    const list = async (query: string) =>
      UserListRecord.parse(expectOk(await call('GET', `/v1/users?page=1&limit=100&sort=DESC&${query}`, { key: client.secretKey }))).users.map((u) => u.id);
    const firstDay = lagosDay((first as { created_at: string }).created_at);
    const secondDay = lagosDay((second as { created_at: string }).created_at);
    expect(firstDay < secondDay).toBe(true);
    expect(await list(`search=chidi&created_to=${firstDay}`)).toEqual([first.id]);
    expect(await list(`search=chidi&created_from=${secondDay}`)).toEqual([second.id]);
    expectFieldError(await call('GET', '/v1/users?page=1&limit=100&sort=DESC&created_from=yesterday', { key: client.secretKey }), 'created_from');
  });
});

describe('GET /v1/payouts filters', () => {
  it('finds by reference, account, created day and amount', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Payee');
    await fundWallet(client, user.id, 10_000);
    expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: user.id, account_number: '0016563228', bank_code: '058' } }));
    const payOut = async (amount: number) =>
      expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: user.id, amount } })) as { id: string; reference: string; created_at: string };
    const small = await payOut(100);
    await advanceDays(client, 2);
    const big = await payOut(2500.75);
    const list = async (query: string) =>
      PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?${query}`, { key: client.secretKey }))).payouts.map((p) => p.id);

    expect(await list(`search=${encodeURIComponent(small.reference.toLowerCase())}`)).toEqual([small.id]);
    expect(await list('search=0016563228')).toEqual([big.id, small.id]);
    expect(await list('amount_min=2500.75')).toEqual([big.id]);
    expect(await list('amount_max=100')).toEqual([small.id]);
    expect(await list(`created_to=${lagosDay(small.created_at)}`)).toEqual([small.id]);
    expect(await list(`created_from=${lagosDay(big.created_at)}`)).toEqual([big.id]);
    expectFieldError(await call('GET', '/v1/payouts?amount_max=1e3', { key: client.secretKey }), 'amount_max');
    expectFieldError(await call('GET', '/v1/payouts?created_to=2026-13-01', { key: client.secretKey }), 'created_to');
  });
});
