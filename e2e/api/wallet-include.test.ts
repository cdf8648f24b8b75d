import { describe, expect, it } from 'vitest';
import { PayoutListRecord } from '@/lib/contracts/payouts';
import { BankAccountListRecord, UserRecord, WalletHistoryRecord } from '@/lib/contracts/records';
import { WalletDetailRecord } from '@/lib/contracts/wallets';
import { call, expectError, expectOk, fundWallet, newClient, newUser, type TestClient } from './support/api';

/**
 * GET /v1/wallets/{user_id}?include= (docs/api.md, "include"): a wallet page's balance, history, payouts, saved
 * accounts and owner in one answer, each part exactly what its own operation answers.
 */

const wallet = async (client: TestClient, userId: string, include?: string) =>
  WalletDetailRecord.parse(expectOk(await call('GET', `/v1/wallets/${userId}${include ? `?include=${include}` : ''}`, { key: client.secretKey })));
const get = async (client: TestClient, path: string) => expectOk(await call('GET', path, { key: client.secretKey }));

describe('GET /v1/wallets/{user_id}?include=', () => {
  it('adds the history, payouts, saved accounts and owner, each as its own operation answers it', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Ngozi');
    await fundWallet(client, user.id, 5_000);
    expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: user.id, bank_code: '058', account_number: '0016563228' } }));
    expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: user.id, amount: 1_200 } }));

    const plain = await wallet(client, user.id);
    expect(plain.history ?? plain.payouts ?? plain.bank_accounts ?? plain.user).toBeUndefined();

    const all = await wallet(client, user.id, 'history,payouts,bank_accounts,user');
    expect(all.balance).toBe(3_800);
    expect(all.history).toEqual(WalletHistoryRecord.parse(await get(client, `/v1/wallets/${user.id}/history`)));
    expect(all.history!.entries.map((e) => e.amount)).toEqual([-1_200, 5_000]);
    expect(all.payouts).toEqual(PayoutListRecord.parse(await get(client, `/v1/payouts?user_id=${user.id}`)));
    expect(all.payouts!.payouts.map((p) => p.amount)).toEqual([1_200]);
    expect(all.bank_accounts).toEqual(BankAccountListRecord.parse(await get(client, `/v1/wallets/banks/list?user_id=${user.id}`)));
    expect(all.bank_accounts!.bank_accounts.map((a) => a.account_number)).toEqual(['0016563228']);
    expect(all.user).toEqual(UserRecord.parse(await get(client, `/v1/users/${user.id}`)));
    expect({ ...all, history: undefined, payouts: undefined, bank_accounts: undefined, user: undefined }).toEqual({ ...plain, history: undefined, payouts: undefined, bank_accounts: undefined, user: undefined });

    const historyOnly = await wallet(client, user.id, 'history');
    expect(historyOnly.history).toEqual(all.history);
    expect(historyOnly.payouts ?? historyOnly.bank_accounts ?? historyOnly.user).toBeUndefined();
  });

  it('refuses an include it does not know, naming it, and stays 404 for another client’s user', async () => {
    const client = await newClient();
    const stranger = await newClient();
    const user = await newUser(client);
    for (const include of ['statement', 'history,everything', '', 'user,']) {
      const refused = expectError(await call('GET', `/v1/wallets/${user.id}?include=${include}`, { key: client.secretKey }), 400, 'VALIDATION_ERROR');
      expect(refused.errors?.map((e) => e.field)).toEqual(['include']);
    }
    expectError(await call('GET', `/v1/wallets/${user.id}?include=history,user`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
  });
});
