/**
 * Email (docs/decisions.md §15) against a real SMTP server on loopback: what the buyer receives when the seller
 * proposes an amount and when a delivery awaits inspection, a reminder a day before a deadline (sent
 * once), a 451 retried until delivered, and a server killed mid-send that sends nothing twice. Without
 * SMTP_URL (the suite's shared server) the outbox is kept and listed to its own client only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import { call, expectError, expectOk, inDays, newClient, newDeal } from './support/api';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { startSmtpSink, type ReceivedEmail, type SmtpSink } from './support/smtp-sink';
import type { TestServer } from '../support/test-server';

const DASHBOARD = 'http://desk.test';
const PROOF = 'https://files.example.com/proof.png';

let sink: SmtpSink;
let store: RestartableStore;
let server: TestServer;

async function startServer() {
  server = await store.start({
    SMTP_URL: sink.url,
    NEXTAUTH_URL: DASHBOARD,
    ESCROW_EMAIL_FROM: 'Escrow Desk <desk@escrow.test>',
    ESCROW_EMAIL_POLL_MS: '100',
    ESCROW_EMAIL_RETRY_BASE_MS: '200',
    ESCROW_EMAIL_LEASE_MS: '1500',
  });
}

const api = (key: string, method: string, path: string, body?: unknown) => call(method, path, { key, body, baseUrl: server.baseUrl });

/** Polls until `ready` holds, for at most `timeoutMs`. */
async function until<T>(what: string, read: () => T | Promise<T>, ready: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const mailTo = (address: string, subject: RegExp) => sink.received.filter((m) => m.to.includes(address) && subject.test(m.subject));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Party = { id: string; email_address?: string; email?: string };
const emailOf = (user: Party) => (user.email_address ?? user.email)!;

/** A client on this suite's server, a buyer with money and a seller, and a transaction of one milestone. */
async function deal(key: string, amount = 50_000) {
  const user = async (first: string) =>
    expectOk(await api(key, 'POST', '/v1/users', { first_name: first, last_name: 'Okafor', email_address: `${first.toLowerCase()}.${randomUUID()}@example.com` }));
  const buyer = await user('Buyer');
  const seller = await user('Seller');
  expectOk(await api(key, 'POST', '/v1/wallets/fund', { user_id: buyer.id, amount: amount * 2 }));
  const transaction = expectOk(
    await api(key, 'POST', '/v1/transactions', {
      title: 'Shop fit-out',
      description: 'Shelves and counters',
      buyer_id: buyer.id,
      seller_id: seller.id,
      milestones: [{ title: 'Counters & <b>shelves</b>', description: 'Built and fitted', amount, due_date: inDays(20) }],
    }),
  );
  return { buyer, seller, transaction, milestoneId: transaction.milestones[0].id as string };
}

async function newServerClient() {
  const created = expectOk(await call('POST', '/v1/operator/clients', { key: server.operatorKey, body: { name: `Mail ${randomUUID().slice(0, 6)}`, mode: 'test' }, baseUrl: server.baseUrl }));
  return created.secret_key as string;
}

async function fundAndDeliver(key: string, d: Awaited<ReturnType<typeof deal>>) {
  expectOk(await api(key, 'POST', `/v1/milestones/${d.milestoneId}/fund`, { buyer_id: d.buyer.id }));
  return expectOk(await api(key, 'POST', `/v1/milestones/${d.milestoneId}/deliver`, { seller_id: d.seller.id, proofs_of_completion: [PROOF] }));
}

const emails = async (key: string) => expectOk(await api(key, 'GET', '/v1/emails?limit=100')).emails as Array<{ id: string; subject: string; status: string; attempts: number; to: { email: string }; text: string }>;

let key: string;
let linked: Awaited<ReturnType<typeof deal>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  store = await restartableStore();
  await startServer();
  key = await newServerClient();
  linked = await deal(key);
  // The buyer signs in to the dashboard: written directly, as the dashboard's invite does, while no server holds the data.
  await server.stop();
  const clientId = (await store.query<{ client_id: string }>('select client_id from users where id = $1', [linked.buyer.id]))[0]!.client_id;
  await store.query(`insert into dashboard_accounts (id, email, name, role, client_id, escrow_user_id) values ($1, $2, 'Buyer Okafor', 'customer', $3, $4)`, [
    randomUUID(),
    emailOf(linked.buyer),
    clientId,
    linked.buyer.id,
  ]);
  await startServer();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.remove();
  await sink?.close();
});

describe('emails to customers over SMTP', () => {
  it('a delivery awaiting inspection: the buyer gets its deadline in WAT and the link to the transaction', async () => {
    const delivered = await fundAndDeliver(key, linked);
    const [mail] = await until('the inspection email', () => mailTo(emailOf(linked.buyer), /awaits your inspection/), (m) => m.length >= 1);
    expect(mail!.subject).toBe('A delivery awaits your inspection: “Counters & <b>shelves</b>”');
    expect(mail!.from).toBe('desk@escrow.test');
    expect(mail!.text).toContain(`Inspect by: ${formatLagosDateTime(new Date(delivered.inspection_end_date))}`);
    expect(mail!.text).toContain('Amount held: ₦50,000.00');
    expect(mail!.text).toContain(`${DASHBOARD}/transactions/${linked.transaction.id}`);
    expect(mail!.html).toContain('Counters &amp; &lt;b&gt;shelves&lt;/b&gt;');
    expect(mail!.html).not.toContain('<b>shelves</b>');
    // The seller is told nothing by this event.
    expect(mailTo(emailOf(linked.seller), /./)).toEqual([]);
  });

  it('the seller proposes an amount: the buyer receives exactly one message with the amount, and both parties the outcome', async () => {
    const { buyer, seller, milestoneId } = linked;
    expectOk(await api(key, 'POST', `/v1/milestones/${milestoneId}/reject`, { buyer_id: buyer.id, rejection_reason: 'Wrong height', proofs_of_return: [PROOF] }));
    expectOk(await api(key, 'PATCH', `/v1/milestones/${milestoneId}/reject/disapprove`, { seller_id: seller.id }));
    const dispute = expectOk(await api(key, 'POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: buyer.id, seller_id: seller.id, milestone_id: milestoneId }));
    expectOk(await api(key, 'PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { dispute_amount: 42_500.5, seller_id: seller.id }));

    const proposals = await until('the proposal email', () => mailTo(emailOf(buyer), /proposed/), (m) => m.length >= 1);
    const mail = proposals[0]!;
    expect(mail.subject).toBe('The seller proposed ₦42,500.50 for “Counters & <b>shelves</b>”');
    expect(mail.to).toEqual([emailOf(buyer)]);
    expect(mail.text).toContain('₦42,500.50');
    expect(mail.text).toContain(dispute.dispute_code);
    expect(mail.text).toContain(`Answer the proposal: ${DASHBOARD}/disputes/${dispute.id}`);
    expect(mail.html).toContain(`<a href="${DASHBOARD}/disputes/${dispute.id}">`);
    // Several more passes of the runner: still one.
    await pause(1_000);
    expect(mailTo(emailOf(buyer), /proposed/)).toHaveLength(1);
    expect(mailTo(emailOf(seller), /proposed/)).toEqual([]);
    const row = (await emails(key)).find((e) => e.subject === mail.subject)!;
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });

    expectOk(await api(key, 'PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { buyer_id: buyer.id }));
    const outcome = new RegExp(`Dispute ${dispute.dispute_code} is resolved`);
    await until('both outcome emails', () => [...mailTo(emailOf(buyer), outcome), ...mailTo(emailOf(seller), outcome)], (m) => m.length === 2);
    const [sellerOutcome] = mailTo(emailOf(seller), outcome);
    expect(sellerOutcome!.text).toContain('to the seller');
    // The seller has no dashboard account: no link, told to act on the marketplace.
    expect(sellerOutcome!.text).not.toContain(DASHBOARD);
  });

  it('a reminder goes to the buyer once when the inspection deadline is within 24 hours', async () => {
    const own = await newServerClient();
    const d = await deal(own, 1_000);
    const delivered = await fundAndDeliver(own, d);
    const due = new Date(delivered.inspection_end_date);
    const reminder = /^Reminder: inspect the delivery of/;
    await pause(500);
    expect(mailTo(emailOf(d.buyer), reminder), 'not yet: the deadline is days away').toEqual([]);
    // To 20 hours before the deadline, on this client's test clock.
    const clock = expectOk(await api(own, 'GET', '/v1/test-clock'));
    const seconds = Math.ceil((due.getTime() - 20 * 3_600_000 - Date.parse(clock.now)) / 1000);
    expectOk(await api(own, 'POST', '/v1/test-clock/advance', { seconds }));
    const [mail] = await until('the reminder', () => mailTo(emailOf(d.buyer), reminder), (m) => m.length >= 1);
    expect(mail!.subject).toBe(`Reminder: inspect the delivery of “Counters & <b>shelves</b>” by ${formatLagosDateTime(due)}`);
    expect(mail!.text).toContain('the delivery is accepted and the seller is paid');
    // Later passes, and the clock moving on within the same 24 hours, write no second one.
    expectOk(await api(own, 'POST', '/v1/test-clock/advance', { seconds: 3_600 }));
    await pause(1_000);
    expect(mailTo(emailOf(d.buyer), reminder)).toHaveLength(1);
    expect(mailTo(emailOf(d.seller), reminder), 'the inspection is the buyer’s move').toEqual([]);
  });

  it("a dispute's mediation deadline reminds both parties, and a cancellation request only the party that did not ask", async () => {
    const own = await newServerClient();
    const d = await deal(own, 1_000);
    await fundAndDeliver(own, d);
    expectOk(await api(own, 'POST', `/v1/milestones/${d.milestoneId}/reject`, { buyer_id: d.buyer.id, rejection_reason: 'Wrong colour', proofs_of_return: [PROOF] }));
    expectOk(await api(own, 'PATCH', `/v1/milestones/${d.milestoneId}/reject/disapprove`, { seller_id: d.seller.id }));
    const dispute = expectOk(await api(own, 'POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: d.buyer.id, seller_id: d.seller.id, milestone_id: d.milestoneId }));
    const other = await deal(own, 1_000);
    expectOk(await api(own, 'POST', `/v1/milestones/${other.milestoneId}/fund`, { buyer_id: other.buyer.id }));
    const asked = expectOk(await api(own, 'POST', `/v1/transactions/${other.transaction.id}/cancel`, { seller_id: other.seller.id, reason: 'Out of stock' }));
    // Both deadlines are 3 business days away; move to 20 hours before the later one, still before the earlier one.
    const mediationEnds = Date.parse(dispute.intra_party_mediation_end_date);
    const cancellationDue = Date.parse(asked.deadlines.find((x: { name: string }) => x.name === 'cancellation_response').due_at);
    const clock = expectOk(await api(own, 'GET', '/v1/test-clock'));
    const target = Math.max(mediationEnds, cancellationDue) - 20 * 3_600_000;
    expect(target).toBeLessThan(Math.min(mediationEnds, cancellationDue));
    expectOk(await api(own, 'POST', '/v1/test-clock/advance', { seconds: Math.ceil((target - Date.parse(clock.now)) / 1000) }));

    const mediation = /^Reminder: agree on a settlement of/;
    await until('both mediation reminders', () => [...mailTo(emailOf(d.buyer), mediation), ...mailTo(emailOf(d.seller), mediation)], (m) => m.length === 2);
    const cancellation = /^Reminder: answer the cancellation request for “Shop fit-out”/;
    await until('the cancellation reminder', () => mailTo(emailOf(other.buyer), cancellation), (m) => m.length === 1);
    await pause(500);
    expect(mailTo(emailOf(other.seller), cancellation), 'the seller asked: nothing to answer').toEqual([]);
  });

  it('payouts: the payee is told when one is paid and when one failed, with the reason', async () => {
    const own = await newServerClient();
    const { buyer } = await deal(own, 1_000);
    const account = expectOk(await api(own, 'POST', '/v1/wallets/banks/disbursement', { user_id: buyer.id, account_number: '0016563228', bank_code: '058' }));
    const failing = expectOk(await api(own, 'POST', '/v1/payouts', { user_id: buyer.id, amount: 300, bank_account_id: account.id }));
    expectOk(await api(own, 'POST', `/v1/test-helpers/payouts/${failing.id}/fail`, { reason: 'Account dormant' }));
    const [failed] = await until('the failed payout email', () => mailTo(emailOf(buyer), /^Payout of ₦300\.00 failed$/), (m) => m.length >= 1);
    expect(failed!.text).toContain('failed: Account dormant');
    expect(failed!.text).toContain('••••3228');
    expectOk(await api(own, 'POST', '/v1/payouts', { user_id: buyer.id, amount: 450, bank_account_id: account.id }));
    // Sandbox payouts are paid a minute later on the client's clock.
    expectOk(await api(own, 'POST', '/v1/test-clock/advance', { seconds: 61 }));
    const [paid] = await until('the paid payout email', () => mailTo(emailOf(buyer), /^Payout of ₦450\.00 paid$/), (m) => m.length >= 1);
    expect(paid!.text).toContain('Your payout of ₦450.00 to');
  });

  it('an SMTP server answering 451 is tried again until it takes the message', async () => {
    const own = await newServerClient();
    const d = await deal(own, 2_000);
    sink.refuseNext(2);
    const refusedBefore = sink.refusals;
    await fundAndDeliver(own, d);
    const [mail] = await until('the delivery after two refusals', () => mailTo(emailOf(d.buyer), /awaits your inspection/), (m) => m.length >= 1);
    expect(sink.refusals - refusedBefore).toBe(2);
    expect(mail!.text).toContain('₦2,000.00');
    const row = await until('the row sent', async () => (await emails(own)).find((e) => /awaits your inspection/.test(e.subject)), (e) => e?.status === 'sent');
    expect(row!.attempts).toBe(3);
    await pause(500);
    expect(mailTo(emailOf(d.buyer), /awaits your inspection/)).toHaveLength(1);
  });

  it('a server killed mid-send does not send again after restart: the email is unknown until an admin resends it', async () => {
    const own = await newServerClient();
    const d = await deal(own, 3_000);
    const hold = sink.holdNext();
    await fundAndDeliver(own, d);
    const received: ReceivedEmail = await Promise.race([
      hold.received,
      pause(15_000).then(() => {
        throw new Error('the held message never arrived');
      }),
    ]);
    expect(received.to).toEqual([emailOf(d.buyer)]);
    expect((await emails(own)).find((e) => e.to.email === emailOf(d.buyer))!.status).toBe('sending');
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server.process.once('exit', resolve));
    hold.release();
    await startServer();

    const row = await until('the interrupted email marked unknown', async () => (await emails(own)).find((e) => e.to.email === emailOf(d.buyer))!, (e) => e.status !== 'sending');
    expect(['unknown', 'sent']).toContain(row.status);
    await pause(1_000);
    expect(mailTo(emailOf(d.buyer), /awaits your inspection/), 'received once, never sent twice').toHaveLength(1);
    expect((await emails(own)).find((e) => e.id === row.id)!.status).toBe(row.status);

    // Only the admin's explicit resend sends it again.
    if (row.status === 'unknown') {
      expect(expectOk(await api(own, 'POST', `/v1/emails/${row.id}/resend`)).status).toBe('pending');
      await until('the resent email', () => mailTo(emailOf(d.buyer), /awaits your inspection/), (m) => m.length === 2);
      await until('the row sent', async () => (await emails(own)).find((e) => e.id === row.id)!, (e) => e.status === 'sent');
      expectError(await api(own, 'POST', `/v1/emails/${row.id}/resend`), 409, 'INVALID_STATE');
    }
    // A restart of the server is inside this test: the embedded database takes its time to open on a busy machine.
  }, 90_000);
});

describe('without SMTP_URL (the shared test server)', () => {
  it("keeps every email, lists it to its own client as kept, and another client can neither see nor resend it", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const d = await newDeal(owner, [700], { walletFunds: 700 });
    const [milestoneId] = d.milestoneIds;
    expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: owner.secretKey, body: { buyer_id: d.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${milestoneId}/deliver`, { key: owner.secretKey, body: { seller_id: d.seller.id, proofs_of_completion: [PROOF] } }));
    const list = expectOk(await call('GET', '/v1/emails', { key: owner.secretKey }));
    expect(list.emails).toHaveLength(1);
    const [kept] = list.emails;
    expect(kept).toMatchObject({ kind: 'delivery_awaits_inspection', status: 'kept', attempts: 0, to: { email: d.buyer.email_address ?? d.buyer.email }, sent_at: null });
    expect(kept.text).toContain('₦700.00');
    expect(list.pagination).toMatchObject({ total: 1, page: 1 });
    expect(expectOk(await call('GET', '/v1/emails?status=sent', { key: owner.secretKey })).emails).toEqual([]);
    expect(expectOk(await call('GET', '/v1/emails?status=sent', { key: owner.secretKey })).pagination.total).toBe(0);
    expect(expectOk(await call('GET', '/v1/emails?status=kept', { key: owner.secretKey })).pagination.total).toBe(1);

    expect(expectOk(await call('GET', '/v1/emails', { key: stranger.secretKey })).emails).toEqual([]);
    expect(expectOk(await call('GET', '/v1/emails', { key: stranger.secretKey })).pagination.total).toBe(0);
    expectError(await call('POST', `/v1/emails/${kept.id}/resend`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', '/v1/emails', { key: owner.secretKey })).emails[0].status).toBe('kept');
  });
});
