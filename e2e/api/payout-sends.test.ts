/**
 * Two servers on one PostgreSQL work through a burst of live payouts (docs/decisions.md §11, §12) whose transfers reach
 * Paystack slowly: each payout's POST /transfer goes out once, from whichever server leased it, and none is PAID twice.
 * A payout is leased for ESCROW_PAYOUT_REQUERY_AFTER_MS from the moment it is claimed, so a server still sending it
 * keeps the other server off it, however long its pass through the burst has run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import type { TestServer } from '../support/test-server';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { send } from './support/lifecycle-load';
import { newVerifiedLiveClient } from './support/api';

const PAYOUTS = 5;
/** Below the lease, so a send outlives it only if its lease was already running out when it was claimed. */
const TRANSFER_DELAY_MS = 1_200;
const LEASE_MS = 2_000;
const PAYEE_ACCOUNT = '0016563228';

async function until(probe: () => Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(inject('database') === 'postgres')('live payouts sent by two servers on one PostgreSQL (runs only with TEST_DATABASE_URL)', () => {
  let store: RestartableStore;
  let paystack: FakePaystack;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    store = await restartableStore();
    paystack = await startFakePaystack();
    const settings = {
      ESCROW_WORKERS: '1',
      ESCROW_PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_BASE_URL: paystack.url,
      ESCROW_PAYOUT_POLL_MS: '100',
      ESCROW_PAYOUT_REQUERY_AFTER_MS: String(LEASE_MS),
    };
    servers.push(await store.start(settings));
    servers.push(await store.start(settings));
    // Takes the payouts without sending any, so that both senders find the whole burst due at once.
    servers.push(await store.start({ ...settings, ESCROW_PAYOUT_POLL_MS: '3600000' }));
    paystack.setWebhookUrl(`${servers[0]!.baseUrl}/v1/providers/paystack/webhook`);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store?.remove();
    await paystack?.close();
  });

  it('a burst of payouts whose transfers take 1.2 s to reach Paystack: each sent once and PAID once', async () => {
    const [first] = servers;
    const key = (await newVerifiedLiveClient(first)).secretKey;
    const user = (await send(first!.baseUrl, key, 'POST', '/v1/users', { first_name: 'Ngozi', last_name: 'Eze', email_address: `payee.${randomUUID()}@example.com` })).data;
    let account: { account_number: string } | null = null;
    await until(async () => (account = (await send(first!.baseUrl, key, 'GET', `/v1/wallets/${user.id}`)).data?.pgA_provider_account_properties ?? null) !== null, 30_000, 'a dedicated account');
    await paystack.creditDedicatedAccount({ accountNumber: account!.account_number, amountKobo: 10_000 * 100 });
    await until(async () => (await send(first!.baseUrl, key, 'GET', `/v1/wallets/${user.id}`)).data?.balance === 10_000, 30_000, 'the funding credited');
    paystack.setAccountName(PAYEE_ACCOUNT, 'NGOZI EZE');
    expect((await send(first!.baseUrl, key, 'POST', '/v1/wallets/banks/disbursement', { user_id: user.id, account_number: PAYEE_ACCOUNT, bank_code: '058' })).status).toBe(200);

    paystack.delayTransfers(TRANSFER_DELAY_MS);
    // Each server's first send waits while the rest are made, so both then find the rest due at once.
    const hold = paystack.holdTransfers();
    const created = await Promise.all(Array.from({ length: PAYOUTS }, () => send(servers[2]!.baseUrl, key, 'POST', '/v1/payouts', { user_id: user.id, amount: 100 })));
    expect(created.map((c) => c.status)).toEqual(Array(PAYOUTS).fill(200));
    await new Promise((r) => setTimeout(r, TRANSFER_DELAY_MS + 500));
    hold.release();
    const references = created.map((c) => (c.data.reference as string).toLowerCase());

    const paid = async () => (await send(first!.baseUrl, key, 'GET', `/v1/payouts?status=PAID&limit=1`)).data.pagination.total as number;
    await until(async () => (await paid()) === PAYOUTS, 60_000, 'every payout paid');

    const posts = paystack.requests.filter((r) => r.method === 'POST' && r.path === '/transfer');
    const repeated = references.filter((ref) => posts.filter((p) => (p.body as { reference: string }).reference === ref).length > 1);
    console.log(`payout sends: ${JSON.stringify({ payouts: PAYOUTS, posts: posts.length, repeated: repeated.length, answers: posts.map((p) => p.status) })}`);
    expect(repeated, 'payouts POSTed to Paystack more than once').toEqual([]);
    expect(paystack.transfers.map((t) => t.reference).sort()).toEqual([...references].sort());
    expect((await send(first!.baseUrl, key, 'GET', `/v1/wallets/${user.id}`)).data.balance).toBe(10_000 - PAYOUTS * 100);
    const integrity = (await send(first!.baseUrl, first!.operatorKey, 'GET', '/v1/operator/ledger/integrity')).data;
    expect(integrity).toMatchObject({ balanced: true, payouts_in_flight_not_matching: [] });
  }, 180_000);
});
