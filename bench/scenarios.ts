/**
 * The data a benchmark run needs, made through the API itself, and the operations it measures.
 */
import { randomUUID } from 'node:crypto';
import { HttpDriver, type Recorder } from './load';

export type Pair = { buyerId: string; sellerId: string };
export type Dataset = { key: string; milestoneIds: string[]; pairs: Pair[] };

const PROOF = 'https://files.example.com/bench/proof.png';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function createClient(baseUrl: string, operatorKey: string): Promise<string> {
  const operator = new HttpDriver(baseUrl, operatorKey, 1);
  const client = await operator.ok('POST', '/v1/operator/clients', { name: `Bench ${randomUUID().slice(0, 8)}`, mode: 'test' });
  operator.close();
  return client.secret_key;
}

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, j) => make(start + j)))));
  }
  return out;
}

function newUser(api: HttpDriver, role: string, i: number) {
  return api.ok('POST', '/v1/users', { first_name: `${role}${i}`, last_name: 'Bench', email_address: `${role.toLowerCase()}${i}.${randomUUID()}@bench.example.com` });
}

function transactionBody(pair: Pair, milestones: number, amount = 1000) {
  return {
    title: 'Bench deal',
    description: 'Made by npm run bench',
    buyer_id: pair.buyerId,
    seller_id: pair.sellerId,
    milestones: Array.from({ length: milestones }, (_, i) => ({ title: `Milestone ${i + 1}`, description: 'Work', amount, due_date: inDays(10 + i) })),
  };
}

/** `workers` buyer/seller pairs of the client `api` calls for, each buyer's wallet funded for thousands of deals. */
export function preparePairs(api: HttpDriver, workers: number): Promise<Pair[]> {
  return inBatches(workers, 8, async (i) => {
    const [buyer, seller] = await Promise.all([newUser(api, 'Buyer', i), newUser(api, 'Seller', i)]);
    await api.ok('POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 10_000_000 });
    return { buyerId: buyer.id, sellerId: seller.id };
  });
}

/**
 * One client with `workers` buyer/seller pairs (each buyer's wallet funded for thousands of deals, so
 * workers never contend on one wallet), 300 users in all, and 100 transactions whose first milestone is
 * delivered (a log of three lines) for the reads.
 */
export async function prepareDataset(baseUrl: string, operatorKey: string, workers: number): Promise<Dataset> {
  const key = await createClient(baseUrl, operatorKey);
  const api = new HttpDriver(baseUrl, key, 8);
  const pairs = await preparePairs(api, workers);
  await inBatches(Math.max(0, 300 - 2 * workers), 8, (i) => newUser(api, 'Reader', i));
  const milestoneIds = (
    await inBatches(100, 8, async (i) => {
      const pair = pairs[i % pairs.length]!;
      const transaction = await api.ok('POST', '/v1/transactions', transactionBody(pair, 2));
      const first = transaction.milestones[0].id;
      await api.ok('POST', `/v1/milestones/${first}/fund`, { buyer_id: pair.buyerId });
      await api.ok('POST', `/v1/milestones/${first}/deliver`, { seller_id: pair.sellerId, proofs_of_completion: [PROOF] });
      return transaction.milestones.map((m: { id: string }) => m.id) as string[];
    })
  ).flat();
  api.close();
  return { key, milestoneIds, pairs };
}

export type Operation = (api: HttpDriver, recorder: Recorder, scheduledAt: number) => Promise<void>;

let readCursor = 0;
export const READS: Record<string, (data: Dataset) => Operation> = {
  'GET milestone': (data) => async (api, recorder, at) => {
    const id = data.milestoneIds[readCursor++ % data.milestoneIds.length];
    await recorder.time('GET milestone', at, () => api.expectOk('GET', `/v1/milestones/${id}`));
  },
  'list users page': () => async (api, recorder, at) => {
    const page = (readCursor++ % 5) + 1;
    await recorder.time('list users page', at, () => api.expectOk('GET', `/v1/users?page=${page}&limit=20&sort=DESC`));
  },
  'list transactions': () => async (api, recorder, at) => {
    const page = (readCursor++ % 5) + 1;
    await recorder.time('list transactions', at, () => api.expectOk('GET', `/v1/transactions?page=${page}&limit=20`));
  },
};

/**
 * What the reads of a client with a long history (bench/two-sizes.ts) name: a row halfway down its
 * transaction list and one halfway along its events (the deep pages, by cursor), a customer with a long
 * wallet history, and a transaction of 20 milestones.
 */
export type LargeDataset = Dataset & { deepTransactionId: string; deepEventId: string; customerId: string; twentyMilestonesId: string };

/** A transaction of 20 milestones between the pair, made through the API, its first milestone funded and delivered; its id. */
export async function twentyMilestoneTransaction(api: HttpDriver, pair: Pair): Promise<string> {
  const transaction = await api.ok('POST', '/v1/transactions', transactionBody(pair, 20));
  const first = transaction.milestones[0].id;
  await api.ok('POST', `/v1/milestones/${first}/fund`, { buyer_id: pair.buyerId });
  await api.ok('POST', `/v1/milestones/${first}/deliver`, { seller_id: pair.sellerId, proofs_of_completion: [PROOF] });
  return transaction.id;
}

const read = (name: string, path: (data: LargeDataset) => string) => (data: LargeDataset) => {
  const url = path(data);
  const operation: Operation = async (api, recorder, at) => {
    await recorder.time(name, at, () => api.expectOk('GET', url));
  };
  return operation;
};

/** Reads whose cost could grow with the client's history: the first page of each long list, a page deep in it, and one big record. */
export const LARGE_DATA_READS: Record<string, (data: LargeDataset) => Operation> = {
  'list transactions page 1': read('list transactions page 1', () => '/v1/transactions?limit=20'),
  'list transactions deep': read('list transactions deep', (d) => `/v1/transactions?limit=20&after=${d.deepTransactionId}`),
  'list events page 1': read('list events page 1', () => '/v1/events?limit=20'),
  'list events deep': read('list events deep', (d) => `/v1/events?limit=20&after=${d.deepEventId}`),
  'wallet history': read('wallet history', (d) => `/v1/wallets/${d.customerId}/history?limit=20`),
  'GET transaction (20 milestones)': read('GET transaction (20 milestones)', (d) => `/v1/transactions/${d.twentyMilestonesId}`),
};

/**
 * Each step is timed on its own; a chain stops at its first failure (counted as an error).
 * `at` is when the chain was due to start: the first step's latency includes any wait for the server.
 */
async function chain(recorder: Recorder, at: number, steps: Array<[string, () => Promise<unknown>]>) {
  let scheduledAt = at;
  for (const [op, run] of steps) {
    const result = await recorder.time(op, scheduledAt, run);
    if (result === undefined) return;
    scheduledAt = performance.now();
  }
}

export const LIFECYCLES: Record<string, { operations: string[]; run: (data: Dataset, pair: Pair) => Operation }> = {
  'escrow lifecycle': {
    operations: ['create transaction', 'fund', 'deliver', 'approve'],
    run: (_data, pair) => async (api, recorder, at) => {
      let milestoneId = '';
      await chain(recorder, at, [
        ['create transaction', async () => (milestoneId = (await api.ok('POST', '/v1/transactions', transactionBody(pair, 1))).milestones[0].id)],
        ['fund', () => api.expectOk('POST', `/v1/milestones/${milestoneId}/fund`, { buyer_id: pair.buyerId })],
        ['deliver', () => api.expectOk('POST', `/v1/milestones/${milestoneId}/deliver`, { seller_id: pair.sellerId, proofs_of_completion: [PROOF] })],
        ['approve', () => api.expectOk('POST', `/v1/milestones/${milestoneId}/approve`, { buyer_id: pair.buyerId })],
      ]);
    },
  },
  'dispute path': {
    operations: ['create transaction', 'fund', 'deliver', 'reject', 'disapprove return', 'open dispute', 'propose amount', 'approve amount'],
    run: (_data, pair) => async (api, recorder, at) => {
      let milestoneId = '';
      let disputeId = '';
      await chain(recorder, at, [
        ['create transaction', async () => (milestoneId = (await api.ok('POST', '/v1/transactions', transactionBody(pair, 1))).milestones[0].id)],
        ['fund', () => api.expectOk('POST', `/v1/milestones/${milestoneId}/fund`, { buyer_id: pair.buyerId })],
        ['deliver', () => api.expectOk('POST', `/v1/milestones/${milestoneId}/deliver`, { seller_id: pair.sellerId, proofs_of_completion: [PROOF] })],
        ['reject', () => api.expectOk('POST', `/v1/milestones/${milestoneId}/reject`, { buyer_id: pair.buyerId, rejection_reason: 'Not as described', proofs_of_return: [PROOF] })],
        ['disapprove return', () => api.expectOk('PATCH', `/v1/milestones/${milestoneId}/reject/disapprove`, { seller_id: pair.sellerId })],
        [
          'open dispute',
          async () =>
            (disputeId = (await api.ok('POST', '/v1/dispute/create', { description: 'The return never arrived', buyer_id: pair.buyerId, seller_id: pair.sellerId, milestone_id: milestoneId })).id),
        ],
        ['propose amount', () => api.expectOk('PATCH', `/v1/dispute/${disputeId}/add-dispute-amount`, { dispute_amount: 500, seller_id: pair.sellerId })],
        ['approve amount', () => api.expectOk('PATCH', `/v1/dispute/${disputeId}/approve-dispute-amount`, { buyer_id: pair.buyerId })],
      ]);
    },
  },
};
