/**
 * A user with its related records in one request (issue #60): GET /v1/users/{id}?include= carries the wallet, its
 * history, the saved bank accounts, payouts, card payments and transactions, each as its own list answers its first
 * page; an unknown include is refused. The statement names its wallet's owner.
 */
import { describe, expect, it } from 'vitest';
import { UserWithRelatedRecord } from '@/lib/contracts/user-related';
import { StatementRecord } from '@/lib/contracts/wallets';
import { call, expectError, expectOk, newClient, newDeal, newUser } from './support/api';

const ALL = 'wallet,wallet_history,bank_accounts,payouts,checkouts,transactions';

describe('GET /v1/users/{id}?include=', () => {
  it('carries each related list as its own list operation answers it, and nothing more without include', async () => {
    const client = await newClient();
    const { buyer, seller, transaction } = await newDeal(client, [4_000], { walletFunds: 10_000 });
    const get = (path: string) => call('GET', path, { key: client.secretKey });
    expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: buyer.id, bank_code: '058', account_number: '0016563228' } }));
    expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: buyer.id, amount: 1_500 } }));

    const user = UserWithRelatedRecord.parse(expectOk(await get(`/v1/users/${buyer.id}?include=${ALL}`)));
    expect(user.id).toBe(buyer.id);
    expect(user.wallet).toEqual(expectOk(await get(`/v1/wallets/${buyer.id}`)));
    expect(user.wallet?.balance).toBe(8_500);
    expect(user.wallet_history).toEqual(expectOk(await get(`/v1/wallets/${buyer.id}/history`)));
    expect(user.bank_accounts).toEqual(expectOk(await get(`/v1/wallets/banks/list?user_id=${buyer.id}`)));
    expect(user.bank_accounts?.bank_accounts).toHaveLength(1);
    expect(user.payouts).toEqual(expectOk(await get(`/v1/payouts?user_id=${buyer.id}`)));
    expect(user.payouts?.payouts.map((p) => p.amount)).toEqual([1_500]);
    expect(user.checkouts).toEqual(expectOk(await get(`/v1/checkouts?user_id=${buyer.id}`)));
    expect(user.transactions).toEqual(expectOk(await get(`/v1/transactions?user_id=${buyer.id}`)));
    expect(user.transactions?.transactions.map((t) => t.id)).toEqual([transaction.id]);

    const plain = expectOk(await get(`/v1/users/${seller.id}`));
    expect(Object.keys(plain)).not.toContain('wallet');
    expect(plain).toEqual(expectOk(await get('/v1/users?page=1&limit=100&sort=DESC')).users.find((u: { id: string }) => u.id === seller.id));
    const some = expectOk(await get(`/v1/users/${seller.id}?include=transactions, wallet`));
    expect(Object.keys(some).filter((k) => ['wallet', 'wallet_history', 'bank_accounts', 'payouts', 'checkouts', 'transactions'].includes(k)).sort()).toEqual(['transactions', 'wallet']);
    expect(some.wallet.balance).toBe(0);
  });

  it('refuses an include it does not know, naming it, and answers 404 for another client’s user', async () => {
    const client = await newClient();
    const other = await newClient();
    const user = await newUser(client);
    const refused = expectError(await call('GET', `/v1/users/${user.id}?include=wallet,wallets`, { key: client.secretKey }), 400, 'VALIDATION_ERROR', /wallets/);
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'include', message: expect.stringContaining('wallets') })]);
    expectError(await call('GET', `/v1/users/${user.id}?include=wallet`, { key: other.secretKey }), 404, 'NOT_FOUND');
  });

  it('names the wallet’s owner on its statement', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Ngozi');
    const statement = StatementRecord.parse(expectOk(await call('GET', `/v1/wallets/${user.id}/statement`, { key: client.secretKey })));
    expect(statement.user).toEqual(expectOk(await call('GET', `/v1/users/${user.id}`, { key: client.secretKey })));
    expect(statement.user.first_name).toBe('Ngozi');
  });
});
