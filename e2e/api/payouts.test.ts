/**
 * Payouts in the sandbox (docs/decisions.md §11), over HTTP: money leaves the wallet at once, is PAID 60 seconds
 * later on the client's clock, and comes back exactly once when a payout fails or is reversed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayoutListRecord, PayoutRecord } from '@/lib/contracts/payouts';
import { BankAccountRecord } from '@/lib/contracts/records';
import { call, expectError, expectLedgerBalanced, expectOk, fundWallet, ledgerIntegrity, newClient, newDeal, newVerifiedLiveClient, newUser, uploadProof, walletBalance, type TestClient } from './support/api';

const GTBANK = { account_number: '0016563228', bank_code: '058' };
const ACCESS = { account_number: '0010246780', bank_code: '044' };

async function saveAccount(client: TestClient, userId: string, account = GTBANK) {
  return BankAccountRecord.parse(expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: userId, ...account } })));
}

function payOut(client: TestClient, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call('POST', '/v1/payouts', { key: client.secretKey, body, headers });
}

async function getPayout(client: TestClient, id: string) {
  return PayoutRecord.parse(expectOk(await call('GET', `/v1/payouts/${id}`, { key: client.secretKey })));
}

async function advance(client: TestClient, seconds: number) {
  return expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds } }));
}

async function eventsOf(client: TestClient, type: string) {
  const data = expectOk(await call('GET', `/v1/events?type=${type}&limit=100`, { key: client.secretKey }));
  return data.events as Array<{ type: string; data: { payout: { id: string; status: string } } }>;
}

/** A user with `funds` in the wallet and a saved account. */
async function payee(client: TestClient, funds: number) {
  const user = await newUser(client, 'Payee');
  if (funds > 0) await fundWallet(client, user.id, funds);
  const account = await saveAccount(client, user.id);
  return { user, account };
}

describe('POST /v1/payouts in the sandbox', () => {
  it('takes the amount out of the wallet at once, is PROCESSING, and is PAID once the client’s clock passes a minute', async () => {
    const client = await newClient();
    const { user, account } = await payee(client, 10_000);
    const payout = PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 2500.5 })));
    expect(payout).toMatchObject({
      user_id: user.id,
      wallet_id: user.wallet.id,
      amount: 2500.5,
      currency: 'NGN',
      status: 'PROCESSING',
      provider: 'sandbox',
      failure_reason: null,
      paid_at: null,
      bank_account: { id: account.id, account_number: GTBANK.account_number, bank_code: '058', bank_name: 'GTBank', account_name: account.account_name },
    });
    expect(payout.reference).toMatch(/^PO_[A-Z0-9]{20}$/);
    expect(await walletBalance(client, user.id)).toBe(7499.5);

    await advance(client, 59);
    expect((await getPayout(client, payout.id)).status).toBe('PROCESSING');
    const moved = await advance(client, 2);
    expect(moved.payouts_paid).toBe(1);
    const paid = await getPayout(client, payout.id);
    expect(paid.status).toBe('PAID');
    expect(paid.paid_at).not.toBeNull();
    expect(await walletBalance(client, user.id)).toBe(7499.5);

    expect((await eventsOf(client, 'payout.created')).map((e) => e.data.payout.id)).toEqual([payout.id]);
    expect((await eventsOf(client, 'payout.paid')).map((e) => [e.data.payout.id, e.data.payout.status])).toEqual([[payout.id, 'PAID']]);
    await expectLedgerBalanced();
  });

  it('pays to the account named, or else to the one saved most recently', async () => {
    const client = await newClient();
    const { user, account: first } = await payee(client, 1000);
    const second = await saveAccount(client, user.id, ACCESS);
    expect(PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 10 }))).bank_account.id).toBe(second.id);
    expect(PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 10, bank_account_id: first.id }))).bank_account.id).toBe(first.id);
  });

  it('refuses what it cannot pay, with the code decisions.md names, and changes nothing', async () => {
    const client = await newClient();
    const { user, account } = await payee(client, 100);
    const bare = await newUser(client, 'Bare');
    await fundWallet(client, bare.id, 100);
    const other = await payee(client, 0);

    expectError(await payOut(client, { user_id: bare.id, amount: 10 }), 409, 'NO_BANK_ACCOUNT');
    expectError(await payOut(client, { user_id: user.id, amount: 100.01 }), 409, 'INSUFFICIENT_FUNDS', /₦100\.00/);
    expectError(await payOut(client, { user_id: user.id, amount: 10, bank_account_id: other.account.id }), 404, 'NOT_FOUND');
    expectError(await payOut(client, { user_id: randomUUID(), amount: 10 }), 404, 'NOT_FOUND');
    for (const amount of [0, -5, 0.001, 'ten']) expectError(await payOut(client, { user_id: user.id, amount }), 400, 'VALIDATION_ERROR');
    expectError(await payOut(client, { user_id: user.id }), 400, 'VALIDATION_ERROR');

    expect(await walletBalance(client, user.id)).toBe(100);
    expect(await walletBalance(client, bare.id)).toBe(100);
    expect(PayoutListRecord.parse(expectOk(await call('GET', '/v1/payouts', { key: client.secretKey }))).payouts).toEqual([]);
    expect(account.name_matches).toBe(false);
  });

  it('a live client on a server without a payment provider gets 409 PROVIDER_NOT_CONFIGURED naming what to set', async () => {
    const live = await newVerifiedLiveClient();
    const user = await newUser(live);
    expectError(await payOut(live, { user_id: user.id, amount: 10 }), 409, 'PROVIDER_NOT_CONFIGURED', /ESCROW_PAYMENT_PROVIDER/);
  });

  it('another client’s payout is 404, to read and to the test helpers', async () => {
    const client = await newClient();
    const stranger = await newClient();
    const { user } = await payee(client, 100);
    const payout = PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 10 })));
    expectError(await call('GET', `/v1/payouts/${payout.id}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expectError(await call('POST', `/v1/test-helpers/payouts/${payout.id}/fail`, { key: stranger.secretKey, body: {} }), 404, 'NOT_FOUND');
    expect(PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?user_id=${user.id}`, { key: stranger.secretKey }))).payouts).toEqual([]);
    expect((await getPayout(client, payout.id)).status).toBe('PROCESSING');
  });

  it('with one Idempotency-Key pays once, however often it is retried', async () => {
    const client = await newClient();
    const { user } = await payee(client, 1000);
    const key = randomUUID();
    const first = PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 300 }, { 'idempotency-key': key })));
    const again = await payOut(client, { user_id: user.id, amount: 300 }, { 'idempotency-key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(PayoutRecord.parse(expectOk(again)).id).toBe(first.id);
    expect(await walletBalance(client, user.id)).toBe(700);
    expect(PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?user_id=${user.id}`, { key: client.secretKey }))).pagination.total).toBe(1);
  });

  it('the list names whose wallet each payout is from, so a list of many customers needs no read per row', async () => {
    const client = await newClient();
    const ngozi = await payee(client, 100);
    const emeka = await payee(client, 100);
    await payOut(client, { user_id: ngozi.user.id, amount: 10 });
    await payOut(client, { user_id: emeka.user.id, amount: 20 });
    const listed = PayoutListRecord.parse(expectOk(await call('GET', '/v1/payouts', { key: client.secretKey }))).payouts;
    expect(listed.map((p) => [p.amount, p.user.id, p.user.email])).toEqual([
      [20, emeka.user.id, emeka.user.email],
      [10, ngozi.user.id, ngozi.user.email],
    ]);
    expect(listed.map((p) => p.user_id)).toEqual([emeka.user.id, ngozi.user.id]);
  });

  it('20 payouts racing 20 milestone fundings on one wallet never take it below zero, and the ledger balances', async () => {
    const client = await newClient();
    const deal = await newDeal(client, Array(20).fill(100), { walletFunds: 3000 });
    await saveAccount(client, deal.buyer.id);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => payOut(client, { user_id: deal.buyer.id, amount: 100 })),
      ...deal.milestoneIds.map((id) => call('POST', `/v1/milestones/${id}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } })),
    ]);
    for (const r of results) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
    const paidOut = results.slice(0, 20).filter((r) => r.status === 200).reduce((sum, r) => sum + r.body.data.amount, 0);
    const balance = await walletBalance(client, deal.buyer.id);
    expect(balance).toBeGreaterThanOrEqual(0);
    const payoutsMade = PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?user_id=${deal.buyer.id}&limit=100`, { key: client.secretKey }))).payouts;
    const fundedMilestones = results.slice(20).filter((r) => r.status === 200).length;
    const history = expectOk(await call('GET', `/v1/wallets/${deal.buyer.id}/history?limit=100`, { key: client.secretKey })).entries as Array<{ kind: string; amount: number }>;
    const moved = (kind: string) => history.filter((e) => e.kind === kind).reduce((sum, e) => sum - e.amount, 0);
    expect(moved('payout')).toBe(payoutsMade.length * 100);
    expect(moved('milestone_funding')).toBe(fundedMilestones * 100);
    expect(payoutsMade.length * 100 + fundedMilestones * 100).toBe(3000 - balance);
    expect(payoutsMade.length * 100).toBe(paidOut);
    await expectLedgerBalanced();
  });
});

describe('the sandbox test helpers', () => {
  it('fail a PROCESSING payout with its reason and put the money back once; a second fail is 409', async () => {
    const client = await newClient();
    const { user } = await payee(client, 500);
    const payout = PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 200 })));
    const failed = PayoutRecord.parse(expectOk(await call('POST', `/v1/test-helpers/payouts/${payout.id}/fail`, { key: client.secretKey, body: { reason: 'Account dormant' } })));
    expect(failed).toMatchObject({ status: 'FAILED', failure_reason: 'Account dormant' });
    expect(failed.failed_at).not.toBeNull();
    expect(await walletBalance(client, user.id)).toBe(500);
    expectError(await call('POST', `/v1/test-helpers/payouts/${payout.id}/fail`, { key: client.secretKey, body: {} }), 409, 'INVALID_STATE');
    expectError(await call('POST', `/v1/test-helpers/payouts/${payout.id}/reverse`, { key: client.secretKey, body: {} }), 409, 'INVALID_STATE');
    // The clock passing the minute pays nothing: the payout has ended.
    await advance(client, 120);
    expect((await getPayout(client, payout.id)).status).toBe('FAILED');
    expect(await walletBalance(client, user.id)).toBe(500);
    expect((await eventsOf(client, 'payout.failed')).map((e) => e.data.payout.id)).toEqual([payout.id]);
    await expectLedgerBalanced();
  });

  it('reverse only a PAID payout, once, and the amount is back in the wallet', async () => {
    const client = await newClient();
    const { user } = await payee(client, 500);
    const payout = PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 200 })));
    expectError(await call('POST', `/v1/test-helpers/payouts/${payout.id}/reverse`, { key: client.secretKey, body: {} }), 409, 'INVALID_STATE', /PROCESSING/);
    await advance(client, 61);
    expect(await walletBalance(client, user.id)).toBe(300);
    const reversed = PayoutRecord.parse(expectOk(await call('POST', `/v1/test-helpers/payouts/${payout.id}/reverse`, { key: client.secretKey, body: {} })));
    expect(reversed).toMatchObject({ status: 'REVERSED', failure_reason: 'The bank returned the payment (sandbox).' });
    expect(reversed.paid_at).not.toBeNull();
    expect(reversed.reversed_at).not.toBeNull();
    expect(await walletBalance(client, user.id)).toBe(500);
    expectError(await call('POST', `/v1/test-helpers/payouts/${payout.id}/reverse`, { key: client.secretKey, body: {} }), 409, 'INVALID_STATE');
    expectError(await call('POST', `/v1/test-helpers/payouts/${payout.id}/fail`, { key: client.secretKey, body: {} }), 409, 'INVALID_STATE');
    expect(await walletBalance(client, user.id)).toBe(500);
    await expectLedgerBalanced();
  });

  it('are refused to live keys with 403 LIVE_MODE_FORBIDDEN', async () => {
    const live = await newClient('live');
    expectError(await call('POST', `/v1/test-helpers/payouts/${randomUUID()}/fail`, { key: live.secretKey, body: {} }), 403, 'LIVE_MODE_FORBIDDEN');
    expectError(await call('POST', `/v1/test-helpers/payouts/${randomUUID()}/reverse`, { key: live.secretKey, body: {} }), 403, 'LIVE_MODE_FORBIDDEN');
  });
});

describe('GET /v1/payouts', () => {
  it('lists newest first, filtered by user and status, paginated like the user list', async () => {
    const client = await newClient();
    const a = await payee(client, 1000);
    const b = await payee(client, 1000);
    const ids: string[] = [];
    for (const [who, amount] of [[a, 1], [b, 2], [a, 3]] as const) ids.push(PayoutRecord.parse(expectOk(await payOut(client, { user_id: who.user.id, amount }))).id);
    await call('POST', `/v1/test-helpers/payouts/${ids[0]}/fail`, { key: client.secretKey, body: {} });
    const list = async (query: string) => PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts${query}`, { key: client.secretKey })));
    expect((await list('')).payouts.map((p) => p.id)).toEqual([...ids].reverse());
    expect((await list(`?user_id=${a.user.id}`)).payouts.map((p) => p.amount)).toEqual([3, 1]);
    expect((await list('?status=FAILED')).payouts.map((p) => p.id)).toEqual([ids[0]]);
    const page = await list('?limit=2&page=2');
    expect(page.payouts.map((p) => p.id)).toEqual([ids[0]]);
    expect(page.pagination).toMatchObject({ page: 2, limit: 2, total: 3, pageCount: 2, hasPrevPage: true, hasNextPage: false });
    expectError(await call('GET', '/v1/payouts?status=LOST', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
  });
});

describe('auto_payout', () => {
  it('off by default; when on, a release to a seller with a saved account starts a payout of it in the same step', async () => {
    const client = await newClient();
    expect(expectOk(await call('GET', '/v1/settings', { key: client.secretKey }))).toEqual({ auto_payout: false });
    expect(expectOk(await call('PATCH', '/v1/settings', { key: client.secretKey, body: { auto_payout: true } }))).toEqual({ auto_payout: true });
    expectError(await call('PATCH', '/v1/settings', { key: client.secretKey, body: { auto_payout: 'yes' } }), 400, 'VALIDATION_ERROR');

    const deal = await newDeal(client, [10_000, 5_000], { walletFunds: 20_000 });
    await saveAccount(client, deal.seller.id);
    const [first, second] = deal.milestoneIds;
    const act = (id: string, action: string, body: Record<string, unknown>) => call('POST', `/v1/milestones/${id}/${action}`, { key: client.secretKey, body });
    const proof = await uploadProof(client);
    expectOk(await act(first!, 'fund', { buyer_id: deal.buyer.id }));
    expectOk(await act(first!, 'deliver', { seller_id: deal.seller.id, proofs_of_completion: [proof] }));
    expectOk(await call('POST', `/v1/milestones/${first}/approve`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));

    const afterAccept = PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?user_id=${deal.seller.id}`, { key: client.secretKey }))).payouts;
    // ₦10,000 less the seller's 1% fee.
    expect(afterAccept.map((p) => [p.amount, p.milestone_id, p.status])).toEqual([[9_900, first, 'PROCESSING']]);
    expect(await walletBalance(client, deal.seller.id)).toBe(0);

    // The second delivery is accepted by its inspection lapsing: the payout starts all the same.
    expectOk(await act(second!, 'fund', { buyer_id: deal.buyer.id }));
    expectOk(await act(second!, 'deliver', { seller_id: deal.seller.id, proofs_of_completion: [proof] }));
    await advance(client, 20 * 86_400);
    const all = PayoutListRecord.parse(expectOk(await call('GET', `/v1/payouts?user_id=${deal.seller.id}`, { key: client.secretKey }))).payouts;
    expect(all.map((p) => [p.amount, p.milestone_id])).toEqual([
      [4_950, second],
      [9_900, first],
    ]);
    await advance(client, 61);
    expect((await call('GET', `/v1/payouts?user_id=${deal.seller.id}&status=PAID`, { key: client.secretKey })).body.data.pagination.total).toBe(2);
    expect(await walletBalance(client, deal.seller.id)).toBe(0);
    await expectLedgerBalanced();
  });

  it('leaves the money in the wallet of a seller with no saved account', async () => {
    const client = await newClient();
    expectOk(await call('PATCH', '/v1/settings', { key: client.secretKey, body: { auto_payout: true } }));
    const deal = await newDeal(client, [1_000], { walletFunds: 1_000 });
    const [id] = deal.milestoneIds;
    expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [await uploadProof(client)] } }));
    expectOk(await call('POST', `/v1/milestones/${id}/approve`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    expect(await walletBalance(client, deal.seller.id)).toBe(990);
    expect(PayoutListRecord.parse(expectOk(await call('GET', '/v1/payouts', { key: client.secretKey }))).payouts).toEqual([]);
  });
});

describe('saved accounts', () => {
  it('keep whether the bank’s name is the user’s; one with a payout on its way cannot be removed; a removed one is never paid to', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Halima');
    await fundWallet(client, user.id, 1000);
    const account = await saveAccount(client, user.id);
    expect(account.name_matches).toBe(false);
    const payout = PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 100 })));
    const remove = () => call('DELETE', `/v1/wallets/banks/disbursement/${account.id}`, { key: client.secretKey });
    expectError(await remove(), 409, 'INVALID_STATE', new RegExp(payout.reference));
    await advance(client, 61);
    expect(BankAccountRecord.parse(expectOk(await remove())).id).toBe(account.id);
    expectError(await remove(), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', `/v1/wallets/banks/list?user_id=${user.id}`, { key: client.secretKey })).bank_accounts).toEqual([]);
    expectError(await payOut(client, { user_id: user.id, amount: 10 }), 409, 'NO_BANK_ACCOUNT');
    // The paid payout still names the account as it was.
    expect((await getPayout(client, payout.id)).bank_account.account_number).toBe(GTBANK.account_number);
    // Saving it again brings it back.
    expect((await saveAccount(client, user.id)).id).toBe(account.id);
    expect(PayoutRecord.parse(expectOk(await payOut(client, { user_id: user.id, amount: 10 }))).bank_account.id).toBe(account.id);
    expect((await ledgerIntegrity()).payouts_in_flight_not_matching).toEqual([]);
  });
});
