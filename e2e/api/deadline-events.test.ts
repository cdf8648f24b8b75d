/**
 * Deadline events (docs/decisions.md §19, docs/webhooks.md): every deadline the service keeps announces itself
 * with `deadline.approaching` 24 hours ahead (when someone owes it) and says `deadline.lapsed` when the service
 * acts on it, each exactly once, right before the events of the action, seen through a sandbox test clock.
 * On PostgreSQL a second server runs on the shared server's database: its background runner races the first's
 * for every deadline here, every other clock move goes through it, and the events are read through it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { onDatabase, startTestServer, type TestServer } from '../support/test-server';
import { baseUrl, call, expectOk, newClient, newDeal, uploadProof, type TestClient } from './support/api';

vi.setConfig({ testTimeout: 90_000 });

const HOUR = 3_600_000;

const onPostgres = inject('database') === 'postgres';

/** The second server on PostgreSQL (the embedded database is one process, so the PGlite pass has only the shared one). */
let second: TestServer | undefined;

beforeAll(async () => {
  if (!onPostgres) return;
  // One process polling every 50 ms: its runner looks for due deadlines far more often than the shared server's.
  second = await startTestServer({ databaseUrl: inject('databaseUrl'), env: { ESCROW_WORKERS: '1', ESCROW_DEADLINE_POLL_MS: '50' } });
}, 180_000);

afterAll(async () => {
  await second?.stop();
});

/** The servers a test talks to: the shared one, and on PostgreSQL the second. */
const servers = () => [baseUrl(), ...(second ? [second.baseUrl] : [])];

/** Where the events are read: the second server when there is one, so what the other recorded is seen through it. */
const reader = () => servers().at(-1)!;

/** Each client's test-clock offset as the last move answered it, so the next move needs no question first. */
const clockOffsets = new Map<string, number>();
let moves = 0;

async function clockNow(client: TestClient): Promise<number> {
  if (!clockOffsets.has(client.id)) clockOffsets.set(client.id, expectOk(await call('GET', '/v1/test-clock', { key: client.secretKey })).offset_ms);
  return Date.now() + clockOffsets.get(client.id)!;
}

/** Moves the client's test clock to `extraMs` past `instant`, through each server in turn. */
async function moveClockTo(client: TestClient, instant: string, extraMs: number) {
  const seconds = Math.ceil((Date.parse(instant) + extraMs - (await clockNow(client))) / 1000);
  const through = servers()[moves++ % servers().length];
  const moved = expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds: Math.max(seconds, 0) }, baseUrl: through }));
  clockOffsets.set(client.id, moved.offset_ms);
}

type Event = { id: string; type: string; sequence: number | null; transaction_id: string | null; data: Record<string, unknown> };

async function eventsOf(client: TestClient, transactionId: string): Promise<Event[]> {
  return expectOk(await call('GET', `/v1/events?transaction_id=${transactionId}&limit=100`, { key: client.secretKey, baseUrl: reader() })).events;
}

type Deal = Awaited<ReturnType<typeof newDeal>> & { id: string; key: string };

async function funded(client: TestClient): Promise<Deal> {
  const deal = await newDeal(client, [100_000], { walletFunds: 100_000 });
  const id = deal.milestoneIds[0]!;
  expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
  return { ...deal, id, key: client.secretKey };
}

async function delivered(client: TestClient): Promise<Deal> {
  const deal = await funded(client);
  const proof = await uploadProof(client);
  expectOk(await call('POST', `/v1/milestones/${deal.id}/deliver`, { key: deal.key, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
  return deal;
}

async function returned(client: TestClient): Promise<Deal> {
  const deal = await delivered(client);
  const proof = await uploadProof(client);
  expectOk(await call('POST', `/v1/milestones/${deal.id}/reject`, { key: deal.key, body: { buyer_id: deal.buyer.id, rejection_reason: 'Broken', proofs_of_return: [proof] } }));
  return deal;
}

async function returnRejected(client: TestClient): Promise<Deal> {
  const deal = await returned(client);
  expectOk(await call('PATCH', `/v1/milestones/${deal.id}/reject/disapprove`, { key: deal.key, body: { seller_id: deal.seller.id } }));
  return deal;
}

async function disputed(client: TestClient): Promise<Deal & { disputeId: string }> {
  const deal = await returnRejected(client);
  const dispute = expectOk(await call('POST', '/v1/dispute/create', { key: deal.key, body: { description: 'No', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: deal.id } }));
  return { ...deal, disputeId: dispute.id };
}

async function inEvidence(client: TestClient) {
  const deal = await disputed(client);
  expectOk(await call('PATCH', `/v1/dispute/${deal.disputeId}/escalate`, { key: deal.key, body: { buyer_id: deal.buyer.id } }));
  return deal;
}

type Watched = { record: 'milestone' | 'dispute' | 'transaction' | 'checkout'; id: string; transactionId: string; name: string; dueAt: string };

const milestoneDeadline = async (deal: Deal, name: string): Promise<Watched> => {
  const m = expectOk(await call('GET', `/v1/milestones/${deal.id}`, { key: deal.key }));
  const found = (m.deadlines as { name: string; due_at: string }[]).find((d) => d.name === name);
  expect(found, `milestone deadline ${name}`).toBeDefined();
  return { record: 'milestone', id: deal.id, transactionId: deal.transaction.id, name, dueAt: found!.due_at };
};

const disputeDeadline = async (deal: Deal & { disputeId: string }, name: string): Promise<Watched> => {
  const d = expectOk(await call('GET', `/v1/dispute/${deal.disputeId}`, { key: deal.key }));
  const found = (d.deadlines as { name: string; due_at: string }[]).find((x) => x.name === name);
  expect(found, `dispute deadline ${name}`).toBeDefined();
  return { record: 'dispute', id: deal.disputeId, transactionId: deal.transaction.id, name, dueAt: found!.due_at };
};

const transactionDeadline = async (deal: Deal, name: string): Promise<Watched> => {
  const t = expectOk(await call('GET', `/v1/transactions/${deal.transaction.id}`, { key: deal.key }));
  const found = (t.deadlines as { name: string; due_at: string }[]).find((x) => x.name === name);
  expect(found, `transaction deadline ${name}`).toBeDefined();
  return { record: 'transaction', id: deal.transaction.id, transactionId: deal.transaction.id, name, dueAt: found!.due_at };
};

const of = (events: Event[], type: string, w: Watched) => events.filter((e) => e.type === type && e.data.name === w.name && e.data.id === w.id);

/**
 * Walks the test clock to 25 hours before the deadline (nothing yet: the notice is 24 hours), to 23 hours before
 * and to an hour before (when announced ahead), past it and a day past that, and checks after each step that each
 * event exists as often as it should: once from its moment on.
 */
async function expectEachOnce(client: TestClient, w: Watched, a: { owedBy: string | null; onLapse: string | RegExp; action: string; announced?: 'ahead' | 'late' | 'never' }) {
  const count = async () => {
    const events = await eventsOf(client, w.transactionId);
    return { events, approaching: of(events, 'deadline.approaching', w), lapsed: of(events, 'deadline.lapsed', w) };
  };
  const announced = a.announced ?? (a.owedBy === null ? 'never' : 'ahead');
  if (announced !== 'never') {
    // Every announced deadline is days away when it starts, so the clock can stand just outside its notice.
    expect(Date.parse(w.dueAt) - (await clockNow(client)), `${w.name} starts more than 25 hours ahead`).toBeGreaterThan(25 * HOUR);
    await moveClockTo(client, w.dueAt, -25 * HOUR);
    const seen = await count();
    expect(seen.approaching, 'no deadline.approaching 25 hours ahead').toHaveLength(0);
    expect(seen.lapsed).toHaveLength(0);
  }
  if (announced === 'ahead') {
    await moveClockTo(client, w.dueAt, -23 * HOUR);
    let seen = await count();
    expect(seen.approaching).toHaveLength(1);
    expect(seen.lapsed).toHaveLength(0);
    await moveClockTo(client, w.dueAt, -HOUR);
    seen = await count();
    expect(seen.approaching).toHaveLength(1);
    expect(seen.lapsed).toHaveLength(0);
  }
  await moveClockTo(client, w.dueAt, 60_000);
  await moveClockTo(client, w.dueAt, 25 * HOUR);
  const { events, approaching, lapsed } = await count();
  expect(lapsed).toHaveLength(1);
  expect(approaching).toHaveLength(announced === 'never' ? 0 : 1);
  const expected = { record: w.record, id: w.id, transaction_id: w.transactionId, name: w.name, due_at: w.dueAt, owed_by: a.owedBy };
  expect(lapsed[0]!.data).toMatchObject(expected);
  expect(lapsed[0]!.data.on_lapse).toMatch(a.onLapse);
  if (announced !== 'never') {
    expect(approaching[0]!.data).toMatchObject(expected);
    expect(approaching[0]!.sequence!).toBeLessThan(lapsed[0]!.sequence!);
  }
  // deadline.lapsed comes right before the event of what the service did about it.
  const at = events.findIndex((e) => e.id === lapsed[0]!.id);
  expect(events[at + 1]?.type).toBe(a.action);
  if (announced === 'late') expect(events[at - 1]?.id).toBe(approaching[0]!.id);
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
}

const title = onPostgres ? 'deadline events (postgres, with a second server on the same database whose runner races the first)' : 'deadline events (pglite)';

describe(title, () => {
  it('inspection: approaching 24 hours ahead, lapsed right before the automatic acceptance, each once', async () => {
    const client = await newClient();
    const deal = await delivered(client);
    await expectEachOnce(client, await milestoneDeadline(deal, 'inspection'), { owedBy: 'buyer', onLapse: 'delivery_accepted', action: 'milestone.delivery_accepted' });
  });

  it('return answer, on time: approaching 24 hours ahead, lapsed right before the automatic approval, each once', async () => {
    const client = await newClient();
    const deal = await returned(client);
    await expectEachOnce(client, await milestoneDeadline(deal, 'return_response'), { owedBy: 'seller', onLapse: 'return_approved', action: 'milestone.return_approved' });
  });

  it('return answer, jumped past in one move: approaching comes late, right before lapsed, then the automatic approval', async () => {
    const client = await newClient();
    const deal = await returned(client);
    await expectEachOnce(client, await milestoneDeadline(deal, 'return_response'), { owedBy: 'seller', onLapse: 'return_approved', action: 'milestone.return_approved', announced: 'late' });
  });

  it('dispute opening: owed by both, lapsed right before the dispute the service opens', async () => {
    const client = await newClient();
    const deal = await returnRejected(client);
    await expectEachOnce(client, await milestoneDeadline(deal, 'dispute_opening'), { owedBy: 'both', onLapse: 'dispute_opened', action: 'dispute.created' });
  });

  it('extension answer: owed by the buyer, lapsed right before the automatic decline', async () => {
    const client = await newClient();
    const deal = await funded(client);
    const due = new Date(Date.parse(deal.transaction.milestones[0].due_date) + 5 * 86_400_000).toISOString();
    expectOk(await call('POST', `/v1/milestones/${deal.id}/extensions`, { key: deal.key, body: { seller_id: deal.seller.id, due_date: due, reason: 'Late supplier' } }));
    await expectEachOnce(client, await milestoneDeadline(deal, 'extension_response'), { owedBy: 'buyer', onLapse: 'extension_declined', action: 'milestone.extension_declined' });
  });

  it('partial-acceptance answer: owed by the seller, lapsed right before the automatic acceptance', async () => {
    const client = await newClient();
    const deal = await delivered(client);
    expectOk(await call('POST', `/v1/milestones/${deal.id}/partial-acceptance`, { key: deal.key, body: { buyer_id: deal.buyer.id, release_amount: 60_000, reason: 'Half broken' } }));
    await expectEachOnce(client, await milestoneDeadline(deal, 'partial_acceptance_response'), {
      owedBy: 'seller',
      onLapse: 'partial_acceptance_accepted',
      action: 'milestone.partial_acceptance_accepted',
    });
  });

  it('mediation: a dispute deadline owed by both, lapsed right before the escalation', async () => {
    const client = await newClient();
    const deal = await disputed(client);
    await expectEachOnce(client, await disputeDeadline(deal, 'intra_party_mediation'), { owedBy: 'both', onLapse: 'escalated_to_evidence_submission', action: 'dispute.escalated' });
  });

  it("evidence, then the dispute team's decision: evidence lapses into a declined arbitration; the team's deadline, owed by no party, is never announced", async () => {
    const client = await newClient();
    const deal = await inEvidence(client);
    await expectEachOnce(client, await disputeDeadline(deal, 'evidence_submission'), { owedBy: 'both', onLapse: 'forfeit_or_arbitration', action: 'dispute.arbitration_declined' });
    await expectEachOnce(client, await disputeDeadline(deal, 'declined_refund'), { owedBy: null, onLapse: 'refunded_to_buyer', action: 'dispute.resolved' });
  });

  it("cancellation answer: owed by the party that did not ask, lapsed (approved) right before the cancellation", async () => {
    const client = await newClient();
    const deal = await funded(client);
    expectOk(await call('POST', `/v1/transactions/${deal.transaction.id}/cancel`, { key: deal.key, body: { seller_id: deal.seller.id, reason: 'Out of stock' } }));
    await expectEachOnce(client, await transactionDeadline(deal, 'cancellation_response'), { owedBy: 'buyer', onLapse: 'cancellation_approved', action: 'transaction.canceled' });
  });

  it("checkout expiry: a milestone checkout's lapses right before checkout.expired, in its transaction's sequence; 30 minutes is too short to announce", async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000]);
    const checkout = expectOk(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: deal.buyer.id, milestone_id: deal.milestoneIds[0] } }));
    const w: Watched = { record: 'checkout', id: checkout.id, transactionId: deal.transaction.id, name: 'checkout_expiry', dueAt: checkout.expires_at };
    await expectEachOnce(client, w, { owedBy: 'buyer', onLapse: 'checkout_expired', action: 'checkout.expired', announced: 'never' });
  });
});

describe.runIf(onPostgres)('deadline events in real time from two servers on one PostgreSQL (runs only with TEST_DATABASE_URL: the embedded database is one process)', () => {
  it("both servers' background runners race for the same deadlines, no clock moved: each milestone's approaching and lapsed are recorded once, in that order", async () => {
    // The shared server and the second: separate processes that share nothing but the database.
    const [a, b] = servers() as [string, string];
    const client = await newClient();
    const asClient = (s: string, method: string, path: string, body?: unknown) => call(method, path, { key: client.secretKey, body, baseUrl: s });
    const DEALS = 6;
    const deals: { transactionId: string; milestoneId: string }[] = [];
    for (let i = 0; i < DEALS; i++) {
      const s = i % 2 ? b : a;
      const buyer = expectOk(await asClient(s, 'POST', '/v1/users', { first_name: 'Buyer', last_name: `${i}`, email: `buyer.${randomUUID()}@example.com` }));
      const seller = expectOk(await asClient(s, 'POST', '/v1/users', { first_name: 'Seller', last_name: `${i}`, email: `seller.${randomUUID()}@example.com` }));
      expectOk(await asClient(s, 'POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 10_000 }));
      const t = expectOk(
        await asClient(s, 'POST', '/v1/transactions', {
          title: `Two servers ${i}`,
          description: 'Deadline events with two runners',
          buyer_id: buyer.id,
          seller_id: seller.id,
          milestones: [{ title: 'Only', description: 'Work', amount: 10_000, due_date: new Date(Date.now() + 86_400_000).toISOString() }],
        }),
      );
      const m = t.milestones[0].id as string;
      expectOk(await asClient(s === a ? b : a, 'POST', `/v1/milestones/${m}/fund`, { buyer_id: buyer.id }));
      expectOk(await asClient(s, 'POST', `/v1/milestones/${m}/deliver`, { seller_id: seller.id, proofs_of_completion: ['https://files.example.com/proof.png'] }));
      deals.push({ transactionId: t.id, milestoneId: m });
    }
    // Every inspection now ends in 3 seconds of real time: both runners race to announce it, then to settle it.
    await onDatabase(inject('databaseUrl'), (sql) => sql`update milestones set inspection_end_date = now() + interval '3 seconds' where client_id = ${client.id}`);
    const settled = async () => {
      const all = await Promise.all(deals.map(async (d) => (await asClient(b, 'GET', `/v1/events?transaction_id=${d.transactionId}&limit=100`)).body.data.events as Event[]));
      return all.every((events) => events.some((e) => e.type === 'milestone.delivery_accepted')) ? all : undefined;
    };
    let all: Event[][] | undefined;
    for (const started = Date.now(); !all && Date.now() - started < 30_000; ) {
      all = await settled();
      if (!all) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(all, 'every inspection lapsed within 30 seconds').toBeDefined();
    for (const events of all!) {
      const types = events.map((e) => e.type);
      expect(types.filter((t) => t === 'deadline.approaching')).toHaveLength(1);
      expect(types.filter((t) => t === 'deadline.lapsed')).toHaveLength(1);
      expect(types.indexOf('deadline.approaching')).toBeLessThan(types.indexOf('deadline.lapsed'));
      expect(types.slice(-2)).toEqual(['deadline.lapsed', 'milestone.delivery_accepted']);
      expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    }
  }, 120_000);
});
