import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '@/lib/contracts/common';
import {
  BankAccountListRecord,
  BankAccountRecord,
  BankRecord,
  NameEnquiryRecord,
  WalletHistoryRecord,
  WalletWithOwnerRecord,
} from '@/lib/contracts/records';
import { call, expectError, expectLedgerBalanced, expectOk, fundWallet, newClient, newDeal, newUser, walletBalance, type TestClient } from './support/api';

/** Sequential writes a few ms apart, so created_at orders them unambiguously. */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Published valid NUBANs (from lib/escrow/nuban.test.ts, with their sources there). */
const VALID = {
  gtbank: { account_number: '0016563228', bank_code: '058', bank_name: 'GTBank' },
  access: { account_number: '0010246780', bank_code: '044', bank_name: 'Access Bank' },
  zenith: { account_number: '1012854016', bank_code: '057', bank_name: 'Zenith Bank' },
  firstBank: { account_number: '0000014579', bank_code: '011', bank_name: 'First Bank of Nigeria' },
  uba: { account_number: '1018044721', bank_code: '033', bank_name: 'United Bank for Africa' },
  moniepoint: { account_number: '4000675874', bank_code: '50515', bank_name: 'Moniepoint Microfinance Bank' },
};

function history(client: TestClient, userId: string, query = '') {
  return call('GET', `/v1/wallets/${userId}/history${query}`, { key: client.secretKey });
}

async function historyTotal(client: TestClient, userId: string): Promise<number> {
  return WalletHistoryRecord.parse(expectOk(await history(client, userId))).pagination.total;
}

function listAccounts(client: TestClient, query = '') {
  return call('GET', `/v1/wallets/banks/list${query}`, { key: client.secretKey });
}

async function accountsTotal(client: TestClient, query = ''): Promise<number> {
  return BankAccountListRecord.parse(expectOk(await listAccounts(client, query))).pagination.total;
}

function expectFieldError(res: Awaited<ReturnType<typeof call>>, status: number, code: string, field: string) {
  const error = expectError(res, status, code);
  ErrorEnvelope.parse(res.body);
  expect((error.errors ?? []).map((e) => e.field), JSON.stringify(res.body)).toContain(field);
  return error;
}

describe('POST /v1/wallets/fund (sandbox money in)', () => {
  it('credits the wallet and the balance shows in GET /v1/wallets/{user_id}', async () => {
    const client = await newClient();
    const user = await newUser(client);
    const res = await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 2500.5 } });
    const wallet = WalletWithOwnerRecord.parse(expectOk(res));
    expect(wallet).toMatchObject({ id: user.wallet.id, user_id: user.id, balance: 2500.5 });

    const fetched = WalletWithOwnerRecord.parse(expectOk(await call('GET', `/v1/wallets/${user.id}`, { key: client.secretKey })));
    expect(fetched).toMatchObject({ id: user.wallet.id, user_id: user.id, balance: 2500.5 });

    await fundWallet(client, user.id, 99.5);
    expect(await walletBalance(client, user.id)).toBe(2600);
    await expectLedgerBalanced();
  });

  it('adds kobo exactly (0.1 + 0.2 is 0.3, not 0.30000000000000004)', async () => {
    const client = await newClient();
    const user = await newUser(client);
    await fundWallet(client, user.id, 0.1);
    await fundWallet(client, user.id, 0.2);
    expect(await walletBalance(client, user.id)).toBe(0.3);
  });

  describe('refuses a bad amount with 400 naming amount, and the wallet is unchanged', () => {
    it.each([
      { what: '0', amount: 0 },
      { what: 'a negative amount', amount: -100 },
      { what: 'more than 2 decimals (0.001)', amount: 0.001 },
      { what: 'an absurdly large amount (1e15)', amount: 1e15 },
      { what: 'a string ("100")', amount: '100' },
      { what: 'null', amount: null },
      { what: 'a missing amount', amount: undefined },
    ])('$what', async ({ amount }) => {
      const client = await newClient();
      const user = await newUser(client);
      await fundWallet(client, user.id, 10);
      const res = await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount } });
      expectFieldError(res, 400, 'VALIDATION_ERROR', 'amount');
      expect(await walletBalance(client, user.id)).toBe(10);
      expect(await historyTotal(client, user.id)).toBe(1);
    });
  });

  it('refuses a non-UUID user_id with 400', async () => {
    const client = await newClient();
    expectFieldError(await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: 'user-1', amount: 10 } }), 400, 'VALIDATION_ERROR', 'user_id');
  });

  it('refuses a live key with 403 LIVE_MODE_FORBIDDEN', async () => {
    const live = await newClient('live');
    const res = await call('POST', '/v1/wallets/fund', { key: live.secretKey, body: { user_id: randomUUID(), amount: 100 } });
    expectError(res, 403, 'LIVE_MODE_FORBIDDEN');
    ErrorEnvelope.parse(res.body);
  });

  it('is 404 for a user that does not exist', async () => {
    const client = await newClient();
    expectError(await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: randomUUID(), amount: 100 } }), 404, 'NOT_FOUND');
    await expectLedgerBalanced();
  });

  it("is 404 for another client's user, whose wallet stays as it was", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const user = await newUser(owner);
    await fundWallet(owner, user.id, 50);
    expectError(await call('POST', '/v1/wallets/fund', { key: stranger.secretKey, body: { user_id: user.id, amount: 1000 } }), 404, 'NOT_FOUND');
    expect(await walletBalance(owner, user.id)).toBe(50);
    expect(await historyTotal(owner, user.id)).toBe(1);
  });
});

describe('GET /v1/wallets/{user_id}', () => {
  it('is 404 for an unknown user, 404 for another client\'s user and 400 for a non-UUID', async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const user = await newUser(owner);
    expectError(await call('GET', `/v1/wallets/${randomUUID()}`, { key: owner.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/wallets/${user.id}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/wallets/not-a-uuid', { key: owner.secretKey }), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /v1/wallets/{user_id}/history', () => {
  it('lists signed entries, newest first: fundings positive, milestone funding negative', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1200]);
    await fundWallet(client, deal.buyer.id, 1000);
    await pause(3);
    await fundWallet(client, deal.buyer.id, 500.25);
    await pause(3);
    const milestoneId = deal.milestoneIds[0]!;
    expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));

    const res = WalletHistoryRecord.parse(expectOk(await history(client, deal.buyer.id)));
    expect(res.entries.map((e) => [e.kind, e.amount, e.milestone_id])).toEqual([
      ['milestone_funding', -1200, milestoneId],
      ['wallet_funding', 500.25, null],
      ['wallet_funding', 1000, null],
    ]);
    // A line of a deal names the deal and its milestone; money in belongs to none.
    expect(res.entries.map((e) => [e.transaction_id, e.transaction_title, e.milestone_title])).toEqual([
      [deal.transaction.id, 'Test deal', 'Milestone 1'],
      [null, null, null],
      [null, null, null],
    ]);
    for (const e of res.entries) {
      expect(e.created_at).toMatch(ISO_MS_UTC);
      expect(e.description.length).toBeGreaterThan(0);
    }
    const times = res.entries.map((e) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The entries add up to the balance.
    const sum = res.entries.reduce((s, e) => s + Math.round(e.amount * 100), 0) / 100;
    expect(sum).toBe(await walletBalance(client, deal.buyer.id));
    expect(sum).toBe(300.25);
    expect(res.pagination).toMatchObject({ page: 1, total: 3, hasNextPage: false });

    // The seller's wallet has no entries yet.
    const seller = WalletHistoryRecord.parse(expectOk(await history(client, deal.seller.id)));
    expect(seller.entries).toEqual([]);
    expect(seller.pagination.total).toBe(0);
  });

  it('paginates', async () => {
    const client = await newClient();
    const user = await newUser(client);
    for (const amount of [1, 2, 3, 4, 5]) {
      await fundWallet(client, user.id, amount);
      await pause(3);
    }
    const page = async (n: number) => WalletHistoryRecord.parse(expectOk(await history(client, user.id, `?page=${n}&limit=2`)));
    const p1 = await page(1);
    expect(p1.entries.map((e) => e.amount)).toEqual([5, 4]);
    expect(p1.pagination).toEqual({
      page: 1, limit: 2, prevPage: null, nextPage: 2, currentPage: 1, total: 5, pageCount: 3, pagingCounter: 1, hasPrevPage: false, hasNextPage: true, nextAfter: p1.entries[1]!.id,
    });
    expect((await page(2)).entries.map((e) => e.amount)).toEqual([3, 2]);
    const p3 = await page(3);
    expect(p3.entries.map((e) => e.amount)).toEqual([1]);
    expect(p3.pagination).toMatchObject({ page: 3, nextPage: null, hasNextPage: false, prevPage: 2, hasPrevPage: true, nextAfter: null });
  });

  it('refuses limit 0 and limit 101 with 400', async () => {
    const client = await newClient();
    const user = await newUser(client);
    expectFieldError(await history(client, user.id, '?limit=0'), 400, 'VALIDATION_ERROR', 'limit');
    expectFieldError(await history(client, user.id, '?limit=101'), 400, 'VALIDATION_ERROR', 'limit');
  });

  it("is 404 for an unknown user and for another client's user", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const user = await newUser(owner);
    await fundWallet(owner, user.id, 10);
    expectError(await history(owner, randomUUID()), 404, 'NOT_FOUND');
    const res = await history(stranger, user.id);
    expectError(res, 404, 'NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('wallet_funding');
  });
});

describe('GET /v1/wallets/banks', () => {
  it('lists real Nigerian banks with their codes', async () => {
    const client = await newClient();
    const banks = expectOk(await call('GET', '/v1/wallets/banks', { key: client.secretKey }));
    expect(Array.isArray(banks)).toBe(true);
    for (const bank of banks) BankRecord.parse(bank);
    expect(banks).toEqual(
      expect.arrayContaining([
        { code: '058', name: 'GTBank' },
        { code: '044', name: 'Access Bank' },
        { code: '057', name: 'Zenith Bank' },
        { code: '011', name: 'First Bank of Nigeria' },
        { code: '033', name: 'United Bank for Africa' },
      ]),
    );
    const codes = banks.map((b: { code: string }) => b.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(banks.length).toBeGreaterThan(20);
  });
});

describe('POST /v1/wallets/banks/validate (account name enquiry)', () => {
  it.each(Object.entries(VALID))('resolves the published %s account', async (_label, account) => {
    const client = await newClient();
    const body = { account_number: account.account_number, bank_code: account.bank_code };
    const first = NameEnquiryRecord.parse(expectOk(await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body })));
    expect(first).toEqual({ ...account, account_name: expect.any(String) });
    expect(first.account_name.trim().length).toBeGreaterThan(0);
    // The same account resolves to the same name every time, for any client.
    const other = await newClient();
    const second = NameEnquiryRecord.parse(expectOk(await call('POST', '/v1/wallets/banks/validate', { key: other.secretKey, body })));
    expect(second.account_name).toBe(first.account_name);
  });

  it('refuses a wrong check digit with 400 INVALID_ACCOUNT_NUMBER naming account_number', async () => {
    const client = await newClient();
    // 0016563228 is valid for GTBank; change the check digit.
    const res = await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body: { account_number: '0016563229', bank_code: '058' } });
    const error = expectFieldError(res, 400, 'INVALID_ACCOUNT_NUMBER', 'account_number');
    expect(error.message).toMatch(/GTBank/);
  });

  it('refuses a valid account number sent with the wrong bank (the check digit is tied to the bank)', async () => {
    const client = await newClient();
    const res = await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body: { account_number: '0016563228', bank_code: '057' } });
    expectFieldError(res, 400, 'INVALID_ACCOUNT_NUMBER', 'account_number');
  });

  it('refuses an unknown bank code with 400 naming bank_code', async () => {
    const client = await newClient();
    const res = await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body: { account_number: '0000014579', bank_code: '999' } });
    expect(res.status).toBe(400);
    ErrorEnvelope.parse(res.body);
    expect((res.body.errors ?? []).map((e: { field: string }) => e.field)).toContain('bank_code');
  });

  it.each([
    { what: '9 digits', body: { account_number: '001656322', bank_code: '058' }, field: 'account_number' },
    { what: '11 digits', body: { account_number: '00165632281', bank_code: '058' }, field: 'account_number' },
    { what: 'letters', body: { account_number: '00165632ab', bank_code: '058' }, field: 'account_number' },
    { what: 'a number instead of a string', body: { account_number: 1012854016, bank_code: '057' }, field: 'account_number' },
    { what: 'no account_number', body: { bank_code: '058' }, field: 'account_number' },
    { what: 'no bank_code', body: { account_number: '0016563228' }, field: 'bank_code' },
    { what: 'a bank_code with letters', body: { account_number: '0016563228', bank_code: 'GTB' }, field: 'bank_code' },
  ])('refuses $what with 400', async ({ body, field }) => {
    const client = await newClient();
    expectFieldError(await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body }), 400, 'VALIDATION_ERROR', field);
  });
});

describe('POST /v1/wallets/banks/disbursement', () => {
  it("saves the account on the user's wallet with the name the enquiry resolves", async () => {
    const client = await newClient();
    const user = await newUser(client);
    const enquiry = expectOk(await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body: { account_number: VALID.zenith.account_number, bank_code: VALID.zenith.bank_code } }));

    const res = await call('POST', '/v1/wallets/banks/disbursement', {
      key: client.secretKey,
      body: { account_number: VALID.zenith.account_number, bank_code: VALID.zenith.bank_code, user_id: user.id },
    });
    const account = BankAccountRecord.parse(expectOk(res));
    expect(res.body.message).toMatch(/disbursement account/i);
    expect(account).toMatchObject({
      wallet_id: user.wallet.id,
      account_number: VALID.zenith.account_number,
      bank_code: VALID.zenith.bank_code,
      account_name: enquiry.account_name,
      pgA_transfer_recipient: null,
    });
    expect(account.created_at).toMatch(ISO_MS_UTC);

    const list = BankAccountListRecord.parse(expectOk(await listAccounts(client)));
    expect(list.bank_accounts.map((a) => a.id)).toEqual([account.id]);
  });

  it('returns the same saved account when the same account is saved again', async () => {
    const client = await newClient();
    const user = await newUser(client);
    const body = { account_number: VALID.gtbank.account_number, bank_code: VALID.gtbank.bank_code, user_id: user.id };
    const first = BankAccountRecord.parse(expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body })));
    const again = BankAccountRecord.parse(expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body })));
    expect(again).toEqual(first);
    expect(await accountsTotal(client)).toBe(1);
  });

  it('keeps several different accounts for one user', async () => {
    const client = await newClient();
    const user = await newUser(client);
    for (const a of [VALID.gtbank, VALID.access]) {
      expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { account_number: a.account_number, bank_code: a.bank_code, user_id: user.id } }));
    }
    expect(await accountsTotal(client, `?user_id=${user.id}`)).toBe(2);
  });

  it('is 404 for an unknown user and saves nothing', async () => {
    const client = await newClient();
    const res = await call('POST', '/v1/wallets/banks/disbursement', {
      key: client.secretKey,
      body: { account_number: VALID.gtbank.account_number, bank_code: VALID.gtbank.bank_code, user_id: randomUUID() },
    });
    expectError(res, 404, 'NOT_FOUND');
    expect(await accountsTotal(client)).toBe(0);
  });

  it("is 404 for another client's user and saves nothing on either side", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const user = await newUser(owner);
    const res = await call('POST', '/v1/wallets/banks/disbursement', {
      key: stranger.secretKey,
      body: { account_number: VALID.gtbank.account_number, bank_code: VALID.gtbank.bank_code, user_id: user.id },
    });
    expectError(res, 404, 'NOT_FOUND');
    expect(await accountsTotal(owner)).toBe(0);
    expect(await accountsTotal(stranger)).toBe(0);
  });

  it.each([
    { what: 'a wrong check digit', body: { account_number: '1012854017', bank_code: '057' }, status: 400, code: 'INVALID_ACCOUNT_NUMBER', field: 'account_number' },
    { what: 'an unknown bank', body: { account_number: '1012854016', bank_code: '999' }, status: 400, code: 'VALIDATION_ERROR', field: 'bank_code' },
    { what: '9 digits', body: { account_number: '101285401', bank_code: '057' }, status: 400, code: 'VALIDATION_ERROR', field: 'account_number' },
  ])('refuses $what with 400 and saves nothing', async ({ body, status, code, field }) => {
    const client = await newClient();
    const user = await newUser(client);
    const res = await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { ...body, user_id: user.id } });
    expectFieldError(res, status, code, field);
    expect(await accountsTotal(client)).toBe(0);
  });

  it('refuses a non-UUID user_id with 400', async () => {
    const client = await newClient();
    const res = await call('POST', '/v1/wallets/banks/disbursement', {
      key: client.secretKey,
      body: { account_number: VALID.gtbank.account_number, bank_code: VALID.gtbank.bank_code, user_id: 'abc' },
    });
    expectFieldError(res, 400, 'VALIDATION_ERROR', 'user_id');
    expect(await accountsTotal(client)).toBe(0);
  });
});

describe('GET /v1/wallets/banks/list', () => {
  async function clientWithAccounts() {
    const client = await newClient();
    const ada = await newUser(client, 'Ada');
    const bola = await newUser(client, 'Bola');
    const save = async (userId: string, a: { account_number: string; bank_code: string }) => {
      const res = await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { account_number: a.account_number, bank_code: a.bank_code, user_id: userId } });
      await pause(3);
      return BankAccountRecord.parse(expectOk(res));
    };
    const saved = [
      await save(ada.id, VALID.gtbank),
      await save(ada.id, VALID.access),
      await save(bola.id, VALID.zenith),
    ];
    return { client, ada, bola, saved };
  }

  it('lists saved accounts with their user and bank name', async () => {
    const { client, ada, bola, saved } = await clientWithAccounts();
    const list = BankAccountListRecord.parse(expectOk(await listAccounts(client, '?sort=ASC')));
    expect(list.bank_accounts.map((a) => [a.id, a.user.id, a.bank_name])).toEqual([
      [saved[0]!.id, ada.id, 'GTBank'],
      [saved[1]!.id, ada.id, 'Access Bank'],
      [saved[2]!.id, bola.id, 'Zenith Bank'],
    ]);
    const { wallet: _wallet, ...adaRecord } = ada;
    expect(list.bank_accounts[0]!.user).toEqual(adaRecord);
    expect(list.bank_accounts[0]).toMatchObject(saved[0]!);
    expect(list.pagination).toMatchObject({ page: 1, total: 3, hasNextPage: false });
  });

  it('filters by user_id', async () => {
    const { client, bola, saved } = await clientWithAccounts();
    const list = BankAccountListRecord.parse(expectOk(await listAccounts(client, `?user_id=${bola.id}`)));
    expect(list.bank_accounts.map((a) => a.id)).toEqual([saved[2]!.id]);
    expect(list.pagination.total).toBe(1);
  });

  it('paginates like the user list', async () => {
    const { client, saved } = await clientWithAccounts();
    const p1 = BankAccountListRecord.parse(expectOk(await listAccounts(client, '?page=1&limit=2&sort=ASC')));
    expect(p1.bank_accounts.map((a) => a.id)).toEqual([saved[0]!.id, saved[1]!.id]);
    expect(p1.pagination).toEqual({
      page: 1, limit: 2, prevPage: null, nextPage: 2, currentPage: 1, total: 3, pageCount: 2, pagingCounter: 1, hasPrevPage: false, hasNextPage: true, nextAfter: expect.any(String),
    });
    const p2 = BankAccountListRecord.parse(expectOk(await listAccounts(client, '?page=2&limit=2&sort=ASC')));
    expect(p2.bank_accounts.map((a) => a.id)).toEqual([saved[2]!.id]);
    expect(p2.pagination).toMatchObject({ page: 2, prevPage: 1, nextPage: null, hasNextPage: false, pagingCounter: 3 });
  });

  it("shows only this client's accounts, even when filtering by another client's user", async () => {
    const { client, ada } = await clientWithAccounts();
    const stranger = await newClient();
    const strangerList = BankAccountListRecord.parse(expectOk(await listAccounts(stranger)));
    expect(strangerList.bank_accounts).toEqual([]);
    expect(strangerList.pagination.total).toBe(0);

    const filtered = await listAccounts(stranger, `?user_id=${ada.id}`);
    // Either 404 (unknown to this client) or an empty list: never the other client's accounts.
    if (filtered.status === 200) {
      expect(filtered.body.data.bank_accounts).toEqual([]);
      expect(filtered.body.data.pagination.total).toBe(0);
    } else {
      expectError(filtered, 404, 'NOT_FOUND');
    }
    expect(await accountsTotal(client)).toBe(3);
  });

  it('refuses a non-UUID user_id and an out-of-range limit with 400', async () => {
    const client = await newClient();
    expectFieldError(await listAccounts(client, '?user_id=ada'), 400, 'VALIDATION_ERROR', 'user_id');
    expectFieldError(await listAccounts(client, '?limit=500'), 400, 'VALIDATION_ERROR', 'limit');
  });
});
