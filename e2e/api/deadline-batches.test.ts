/**
 * A storm of lapsed deadlines on one client (issue #28): the runner settles inspections and returns left
 * unanswered in batches of set-based writes. Each deal must end exactly as a lapse settled on its own
 * leaves it (a client with auto_payout on is settled one transaction at a time, so it shows that shape):
 * the same money, log line and event, with event sequences unbroken and one webhook delivery per event.
 */
import { describe, expect, it } from 'vitest';
import { call, expectLedgerBalanced, expectOk, fundWallet, inDays, newClient, newUser, uploadProof, walletBalance, type TestClient } from './support/api';

/** Enough for the batch to be a storm in small (deadline-runners.test.ts has more than one batch, on PostgreSQL). */
const DEALS = 130;
const AMOUNT = 10_000;

type Deal = { transactionId: string; milestoneId: string };

async function party(client: TestClient) {
  const buyer = await newUser(client, 'Buyer');
  const seller = await newUser(client, 'Seller');
  return { buyer, seller };
}

/** A one-milestone deal, funded and delivered: under inspection. */
async function delivered(client: TestClient, people: Awaited<ReturnType<typeof party>>, proof: string): Promise<Deal> {
  const key = client.secretKey;
  const transaction = expectOk(
    await call('POST', '/v1/transactions', {
      key,
      body: {
        title: 'Batch deal',
        description: 'A deal of the storm',
        buyer_id: people.buyer.id,
        seller_id: people.seller.id,
        milestones: [{ title: 'Work', description: 'Work', amount: AMOUNT, due_date: inDays(10) }],
      },
    }),
  );
  const milestoneId = transaction.milestones[0].id as string;
  expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key, body: { buyer_id: people.buyer.id } }));
  expectOk(await call('POST', `/v1/milestones/${milestoneId}/deliver`, { key, body: { seller_id: people.seller.id, proofs_of_completion: [proof] } }));
  return { transactionId: transaction.id, milestoneId };
}

async function eventsOf(client: TestClient, transactionId: string) {
  return expectOk(await call('GET', `/v1/events?transaction_id=${transactionId}&limit=100`, { key: client.secretKey })).events as Array<{
    id: string;
    type: string;
    sequence: number;
    data: { actor: string; automatic: boolean; message: string; milestone: Record<string, unknown> };
  }>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A record with what differs between two deals of the same shape (ids, instants, generated user names) blanked out. */
function shapeOf(value: unknown): unknown {
  // A log line's own time (the deals are delivered over several seconds, so a minute may turn between them).
  if (typeof value === 'string') return INSTANT.test(value) ? '<instant>' : value.replace(UUID, '<id>').replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d WAT/g, '<when>');
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'user_name' ? '<name>' : shapeOf(v)]));
  return value;
}

describe('a storm of lapsed deadlines', () => {
  it(`settles ${DEALS} lapsed inspections and an unanswered return together, each as a lapse alone would`, async () => {
    const client = await newClient();
    const key = client.secretKey;
    const hook = expectOk(await call('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/storm' } }));
    const people = await party(client);
    await fundWallet(client, people.buyer.id, (DEALS + 1) * AMOUNT);
    const proof = await uploadProof(client);
    const deals: Deal[] = [];
    for (let i = 0; i < DEALS; i++) deals.push(await delivered(client, people, proof));
    const returned = await delivered(client, people, proof);
    expectOk(await call('POST', `/v1/milestones/${returned.milestoneId}/reject`, { key, body: { buyer_id: people.buyer.id, rejection_reason: 'Broken', proofs_of_return: [proof] } }));

    // The same deal on a client whose releases start payouts: its lapse is settled on its own.
    const alone = await newClient();
    expectOk(await call('PATCH', '/v1/settings', { key: alone.secretKey, body: { auto_payout: true } }));
    const alonePeople = await party(alone);
    await fundWallet(alone, alonePeople.buyer.id, AMOUNT);
    const aloneDeal = await delivered(alone, alonePeople, await uploadProof(alone));

    const advanced = expectOk(await call('POST', '/v1/test-clock/advance', { key, body: { days: 30 } }));
    expect(advanced.settled).toBe(DEALS + 1);
    expect(expectOk(await call('POST', '/v1/test-clock/advance', { key: alone.secretKey, body: { days: 30 } })).settled).toBe(1);

    // The money: every release less the seller's 1% fee, the return refunded in full.
    expect(await walletBalance(client, people.seller.id)).toBe(DEALS * AMOUNT * 0.99);
    expect(await walletBalance(client, people.buyer.id)).toBe(AMOUNT);
    await expectLedgerBalanced();

    const [aloneEvent] = (await eventsOf(alone, aloneDeal.transactionId)).slice(-1);
    const aloneMilestone = expectOk(await call('GET', `/v1/milestones/${aloneDeal.milestoneId}`, { key: alone.secretKey }));
    let eventCount = 0;
    for (const deal of [deals[0]!, deals[DEALS - 1]!, ...deals.filter((_, i) => i % 13 === 5)]) {
      const milestone = expectOk(await call('GET', `/v1/milestones/${deal.milestoneId}`, { key }));
      expect(milestone).toMatchObject({ status: 'COMPLETED', is_completed: true, milestone_escrow: { balance: 0 } });
      expect(milestone.transaction).toMatchObject({ status: 'COMPLETED', total_amount_disbursed: AMOUNT * 0.99 });
      // The same log lines as the deal settled alone.
      expect(shapeOf(milestone.milestone_logs)).toEqual(shapeOf(aloneMilestone.milestone_logs));
      const events = await eventsOf(client, deal.transactionId);
      expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
      const accepted = events.at(-1)!;
      expect(accepted).toMatchObject({ type: 'milestone.delivery_accepted', data: { actor: 'system', automatic: true } });
      // The event carries the milestone as the API now shows it, and reads as the one settled alone.
      const { milestone_logs: _logs, ...shown } = milestone;
      expect(accepted.data.milestone).toEqual(shown);
      expect(shapeOf(accepted)).toEqual(shapeOf(aloneEvent));
    }
    const returnedMilestone = expectOk(await call('GET', `/v1/milestones/${returned.milestoneId}`, { key }));
    expect(returnedMilestone).toMatchObject({ status: 'DELIVERY_RETURN_APPROVED', is_return_approved: true, milestone_escrow: { balance: 0 } });
    expect(returnedMilestone.milestone_logs.at(-1)).toMatchObject({ actor: 'system', is_automatic: true, log_message: expect.stringMatching(/approved automatically/) });
    expect((await eventsOf(client, returned.transactionId)).at(-1)).toMatchObject({ type: 'milestone.return_approved', data: { automatic: true } });

    // One delivery of every event to the endpoint.
    eventCount = expectOk(await call('GET', '/v1/events?limit=1', { key })).pagination.total;
    expect(expectOk(await call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=1`, { key })).pagination.total).toBe(eventCount);
  }, 240_000);
});
