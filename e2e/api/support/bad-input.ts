/**
 * The bad-input suite's machinery (bad-input*.test.ts): requests, the refusal every bad input must get, each operation
 * staged where its valid request succeeds, the bad values generated from its zod schema, and the suites an operation
 * gets. The operations are split over a few files by tag (BAD_INPUT_PARTS) only so that they run side by side.
 *
 * Each operation is staged in a state where its valid request succeeds (the last test of each
 * operation proves it, after refusing it with an unknown extra field), so a refusal is the bad input's doing.
 * Every refusal must be a 4xx with the error envelope of docs/decisions.md §1 naming the field at fault, and
 * the client's records, wallets, ledger entries and the whole ledger must be as they were.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { MAX_UPLOAD_BYTES } from '@/lib/contracts/files';
import type { Tag } from '@/lib/api/operation';
import { OPERATIONS, type Operation } from './operations';
import { baseUrl, expectOk, inDays, ledgerIntegrity, newClient, operatorKey, snapshot, type ApiResponse, type TestClient } from './api';
import { STAGE_OF, stageMilestone, type Deal, type Send, type StagedMilestone } from './staging';

// ---------------------------------------------------------------------------------------------
// Requests

export type Query = Record<string, string>;
export type Body = Record<string, unknown>;
export type Req = { method: string; path: string; query: Query | null; body: Body | null; key: string };

/** Every request this file sends goes through here: paced per key and retried on 429 (nothing ran). */
const lastSent = new Map<string, number>();
export async function http(method: string, url: string, opts: { key: string | null; body?: BodyInit; contentType?: string | null }): Promise<ApiResponse> {
  for (let attempt = 0; ; attempt++) {
    const scope = opts.key ?? '';
    const wait = (lastSent.get(scope) ?? 0) + 8 - Date.now();
    if (wait > 0) await sleep(wait);
    lastSent.set(scope, Date.now());
    const headers: Record<string, string> = {};
    if (opts.key) headers.authorization = opts.key;
    if (opts.contentType) headers['content-type'] = opts.contentType;
    const res = await fetch(`${baseUrl()}${url}`, { method, headers, body: opts.body });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text, the assertions will show it
    }
    if (res.status === 429 && attempt < 30) {
      await sleep(Math.max(1, Number(res.headers.get('retry-after') ?? '1')) * 1000);
      continue;
    }
    return { status: res.status, body, headers: res.headers };
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const urlOf = (req: Pick<Req, 'path' | 'query'>) => `${req.path}${req.query ? `?${new URLSearchParams(req.query)}` : ''}`;

export function sendJson(req: Req): Promise<ApiResponse> {
  return http(req.method, urlOf(req), { key: req.key, body: req.body ? JSON.stringify(req.body) : undefined, contentType: req.body ? 'application/json' : null });
}

export function sendRaw(req: Req, body: BodyInit | undefined, contentType: string | null): Promise<ApiResponse> {
  return http(req.method, urlOf(req), { key: req.key, body, contentType });
}

/** How a request is shown in a failure message: enough to repeat it by hand. */
export function show(req: Req, body?: unknown): string {
  const text = body === undefined ? (req.body ? JSON.stringify(req.body) : '') : typeof body === 'string' ? body : '<binary>';
  return `${req.method} ${urlOf(req)}${text ? ` ${text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// The refusal every bad input must get, and the count of bad inputs sent

let badInputs = 0;
const perOperation = new Map<string, number>();

export type Expected = { status: number; codes: string[]; field?: string };

export function expectRefused(op: Operation, res: ApiResponse, request: string, expected: Expected) {
  badInputs++;
  perOperation.set(op.id, (perOperation.get(op.id) ?? 0) + 1);
  const body = res.body as { code?: string; errors?: Array<{ field: string }> } | string;
  const problems: string[] = [];
  if (res.status !== expected.status) problems.push(`status ${res.status}, expected ${expected.status}`);
  if (!ErrorEnvelope.safeParse(body).success) problems.push('not the error envelope {status:false, message, code, errors?}');
  else if (typeof body !== 'string') {
    if (!expected.codes.includes(body.code!)) problems.push(`code ${body.code}, expected ${expected.codes.join(' or ')}`);
    const fields = (body.errors ?? []).map((e) => e.field);
    if (expected.field && !fields.some((f) => f === expected.field || f.startsWith(`${expected.field}.`))) {
      problems.push(`errors[] names ${JSON.stringify(fields)}, expected ${expected.field}`);
    }
  }
  expect.soft(problems, `${request}\n  → ${res.status} ${clip(typeof body === 'string' ? body : JSON.stringify(body))}`).toEqual([]);
}

export const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

export const VALIDATION = (field?: string): Expected => ({ status: 400, codes: ['VALIDATION_ERROR'], field });
const INVALID_JSON: Expected = { status: 400, codes: ['INVALID_JSON'] };
/** Valid JSON that is not an object, or no JSON at all: 400, as invalid JSON or an invalid body. */
const NOT_AN_OBJECT: Expected = { status: 400, codes: ['INVALID_JSON', 'VALIDATION_ERROR'] };
const UNSUPPORTED: Expected = { status: 415, codes: ['UNSUPPORTED_MEDIA_TYPE'] };
const TOO_LARGE: Expected = { status: 413, codes: ['PAYLOAD_TOO_LARGE'] };

// ---------------------------------------------------------------------------------------------
// A deal in the state where each operation's valid request succeeds

const GTBANK = { account_number: '0016563228', bank_code: '058' };

export type Staged = StagedMilestone & {
  op: Operation;
  fileId: string;
  marker: string;
  webhookId?: string;
  deliveryId?: string;
  bankAccountId?: string;
  payoutId?: string;
  checkoutId?: string;
  emailId?: string;
  eventId?: string;
  entryId?: string;
};

/** Staging goes through the same pacing and 429 retries as every other request of this file. */
const pacedSend: Send = (method, path, key, body) => sendJson({ method, path, query: null, body: body ?? null, key });

/**
 * Every client staged here is the operation's own, so driving one to arbitration (which moves its test
 * clock) moves no one else's deadlines.
 */
export async function stage(op: Operation, client: TestClient): Promise<Staged> {
  const milestone = await stageMilestone(client, STAGE_OF[op.id] ?? 'pending', pacedSend);
  const webhook = op.path.startsWith('/v1/webhooks/') ? await stageWebhook(client) : {};
  const payout = PAYOUT_STAGE[op.id] ? await stagePayout(client, milestone.deal.buyer.id, PAYOUT_STAGE[op.id]!) : {};
  const checkout = CHECKOUT_OPS.has(op.id) ? await stageCheckout(client, milestone.deal.buyer.id) : {};
  // A list's recipe sends a row of the list as its cursor (after).
  const email = op.path.startsWith('/v1/emails') ? await stageEmail(client) : {};
  const event = op.path.startsWith('/v1/events') ? await stageEvent(client) : {};
  const entry = op.id === 'walletHistory' ? await stageEntry(client, milestone.deal.buyer.id) : {};
  return { op, ...milestone, fileId: milestone.proof.split('/').pop()!, marker: randomUUID(), ...webhook, ...payout, ...checkout, ...email, ...event, ...entry };
}

/** How far each payout operation needs its fixtures: a saved account, a payout with the provider, or a paid one. */
const PAYOUT_STAGE: Record<string, 'account' | 'processing' | 'paid'> = {
  createPayout: 'account',
  removeBankAccount: 'account',
  getPayout: 'processing',
  failPayout: 'processing',
  listPayouts: 'processing',
  listBankAccounts: 'account',
  reversePayout: 'paid',
};

/** The buyer's saved account and, as asked, a payout to it (paid: the client's clock moved past its minute). */
async function stagePayout(client: TestClient, userId: string, stage: 'account' | 'processing' | 'paid'): Promise<{ bankAccountId: string; payoutId?: string }> {
  const key = client.secretKey;
  const account = expectOk(await pacedSend('POST', '/v1/wallets/banks/disbursement', key, { ...GTBANK, user_id: userId }));
  if (stage === 'account') return { bankAccountId: account.id };
  const payout = expectOk(await pacedSend('POST', '/v1/payouts', key, { user_id: userId, amount: 50, bank_account_id: account.id }));
  if (stage === 'paid') expectOk(await pacedSend('POST', '/v1/test-clock/advance', key, { seconds: 61 }));
  return { bankAccountId: account.id, payoutId: payout.id };
}

/** The checkout operations that name one: each is staged with a PENDING checkout into the buyer's wallet. */
const CHECKOUT_OPS = new Set(['getCheckout', 'listCheckouts', 'payCheckout', 'failCheckout']);

async function stageCheckout(client: TestClient, userId: string): Promise<{ checkoutId: string }> {
  const checkout = expectOk(await pacedSend('POST', '/v1/checkouts', client.secretKey, { buyer_id: userId, amount: 75 }));
  return { checkoutId: checkout.id };
}

/**
 * A webhook endpoint nobody listens on, with one delivery in its log; waits for the first (failed)
 * attempt, after which the log stays still for the 24 s or more until the retry.
 */
async function stageWebhook(client: TestClient): Promise<{ webhookId: string; deliveryId: string }> {
  const key = client.secretKey;
  const webhook = expectOk(await http('POST', '/v1/webhooks', { key, body: JSON.stringify({ url: 'http://127.0.0.1:9/escrow-hooks' }), contentType: 'application/json' }));
  const delivery = expectOk(await http('POST', `/v1/webhooks/${webhook.id}/test`, { key }));
  for (let attempt = 0; attempt < 200; attempt++) {
    const log = expectOk(await http('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key }));
    if (log.deliveries[0]?.attempts >= 1 && log.deliveries[0]?.last_error) break;
    await sleep(50);
  }
  return { webhookId: webhook.id, deliveryId: delivery.id };
}

/** An email of the client: the buyer's "a delivery awaits your inspection" of the milestone staged as delivered. */
async function stageEmail(client: TestClient): Promise<{ emailId: string }> {
  const list = expectOk(await http('GET', '/v1/emails?limit=1', { key: client.secretKey }));
  if (!list.emails[0]) throw new Error('the staged delivery wrote no email');
  return { emailId: list.emails[0].id };
}

/** An event of the client: the staged milestone's own steps wrote some. */
async function stageEvent(client: TestClient): Promise<{ eventId: string }> {
  const list = expectOk(await http('GET', '/v1/events?limit=1', { key: client.secretKey }));
  if (!list.events[0]) throw new Error('the staged milestone wrote no event');
  return { eventId: list.events[0].id };
}

/** An entry of the user's wallet history: the staged deal funded the buyer's wallet. */
async function stageEntry(client: TestClient, userId: string): Promise<{ entryId: string }> {
  const list = expectOk(await http('GET', `/v1/wallets/${userId}/history?limit=1`, { key: client.secretKey }));
  if (!list.entries[0]) throw new Error('the staged deal wrote no wallet entry');
  return { entryId: list.entries[0].id };
}

/** The request the right caller would send now, and which succeeds. */
export function validRequest(s: Staged): Req {
  const { op } = s;
  const key = op.auth === 'operator' ? operatorKey() : s.client.secretKey;
  return { method: op.method.toUpperCase(), path: pathOf(s), query: queryOf(s), body: op.body ? bodyOf(s) : null, key };
}

export function pathOf(s: Staged, override?: string): string {
  const { op, deal } = s;
  return op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    if (override !== undefined) return override;
    if (name === 'user_id' || op.path.startsWith('/v1/users/')) return deal.buyer.id;
    if (op.path.startsWith('/v1/transactions/')) return deal.transaction.id;
    if (op.path.startsWith('/v1/milestones/')) return s.milestoneId;
    if (op.path.startsWith('/v1/dispute/') || op.path.startsWith('/v1/operator/disputes/')) return s.disputeId!;
    if (op.path.startsWith('/v1/files/') || op.path.startsWith('/v1/operator/files/')) return s.fileId;
    if (name === 'delivery_id') return s.deliveryId!;
    if (op.path.startsWith('/v1/webhooks/')) return s.webhookId!;
    if (op.path.startsWith('/v1/payouts/') || op.path.startsWith('/v1/test-helpers/payouts/')) return s.payoutId!;
    if (op.path.startsWith('/v1/checkouts/') || op.path.startsWith('/v1/test-helpers/checkouts/')) return s.checkoutId!;
    if (op.path.startsWith('/v1/wallets/banks/disbursement/')) return s.bankAccountId!;
    if (op.path.startsWith('/v1/emails/')) return s.emailId!;
    if (op.path.startsWith('/v1/events/')) return s.eventId!;
    if (op.path.startsWith('/v1/operator/clients/')) return s.client.id;
    throw new Error(`No path id recipe for ${op.path}: add one to bad-input.test.ts`);
  });
}

export function bodyOf(s: Staged): Body {
  const { deal } = s;
  switch (s.op.id) {
    case 'createClient':
      return { name: `Bad input probe ${s.marker}`, mode: 'test' };
    case 'createUser':
      return { first_name: 'Probe', last_name: 'User', email_address: `probe.${s.marker}@example.com`, phone: '+2348012345678' };
    case 'createTransaction':
      return {
        title: 'Probe deal',
        description: 'Made by the bad-input test',
        buyer_id: deal.buyer.id,
        seller_id: deal.seller.id,
        milestones: [{ title: 'One', description: 'Work', amount: 500, due_date: inDays(10), inspection_duration: 3 }],
        category: 'Goods',
        sub_category: 'Phones',
        commission_payer: 'SELLER_100',
        transaction_contract_url: 'https://example.com/contract.pdf',
      };
    case 'fundMilestone':
    case 'approveDelivery':
    case 'approveDisputeAmount':
      return { buyer_id: deal.buyer.id };
    case 'deliverMilestone':
      return { seller_id: deal.seller.id, proofs_of_completion: [s.proof] };
    case 'rejectDelivery':
      return { buyer_id: deal.buyer.id, rejection_reason: 'Not as described', proofs_of_return: [s.proof] };
    case 'approveReturn':
    case 'disapproveReturn':
      return { seller_id: deal.seller.id };
    case 'createDispute':
      return { description: 'Return refused', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: s.milestoneId };
    case 'addDisputeAmount':
      return { dispute_amount: 300, seller_id: deal.seller.id };
    case 'rejectDisputeAmount':
      return { buyer_id: deal.buyer.id, reason: 'Too much' };
    case 'escalateDispute':
      return { buyer_id: deal.buyer.id };
    case 'submitEvidence':
      return { buyer_id: deal.buyer.id, text: 'Photos of the item as it arrived', files: [s.proof] };
    case 'cancelDispute':
      return { seller_id: deal.seller.id, cancellation_agreement_details: 'Settled between the parties' };
    case 'cancelTransaction':
    case 'terminateTransaction':
      return { buyer_id: deal.buyer.id, reason: 'We no longer need this' };
    case 'approveCancellation':
      return { buyer_id: deal.buyer.id };
    case 'declineCancellation':
      return { buyer_id: deal.buyer.id, reason: 'The work is nearly done' };
    case 'rateTransaction':
      return { buyer_id: deal.buyer.id, score: 4, comment: 'Good' };
    case 'counterOffer':
      return { buyer_id: deal.buyer.id, amount: 250, reason: 'Half arrived' };
    case 'acceptCounterOffer':
      return { seller_id: deal.seller.id };
    case 'requestExtension':
      return { seller_id: deal.seller.id, due_date: inDays(30), reason: 'Supplier delay' };
    case 'approveExtension':
      return { buyer_id: deal.buyer.id };
    case 'declineExtension':
      return { buyer_id: deal.buyer.id, reason: 'The date matters to us' };
    case 'extendEvidenceWindow':
      return { buyer_id: deal.buyer.id, reason: 'The courier report comes on Monday' };
    case 'refundMilestone':
      return { seller_id: deal.seller.id, amount: 300, reason: 'Part of the order was out of stock' };
    case 'proposePartialAcceptance':
      return { buyer_id: deal.buyer.id, release_amount: 600, reason: 'Part arrived broken' };
    case 'acceptPartialAcceptance':
      return { seller_id: deal.seller.id };
    case 'declinePartialAcceptance':
      return { seller_id: deal.seller.id, reason: 'It left us intact' };
    case 'decideVerdict':
      return { seller_amount: 400, reason: 'The delivery matched the contract in part' };
    case 'advanceTestClock':
      return { seconds: 60, days: 1 };
    case 'fundWallet':
      return { user_id: deal.buyer.id, amount: 100 };
    case 'saveBankAccount':
      return { ...GTBANK, user_id: deal.buyer.id };
    case 'validateBankAccount':
      return { ...GTBANK };
    case 'createWebhook':
      return { url: 'https://127.0.0.1:9/escrow-hooks', description: `Bad input probe ${s.marker}` };
    case 'rollKey':
      return { expires_in_hours: 24 };
    case 'createPayout':
      return { user_id: deal.buyer.id, amount: 25.5, bank_account_id: s.bankAccountId };
    case 'failPayout':
    case 'reversePayout':
    case 'failCheckout':
      return { reason: 'Probe of the sandbox helper' };
    case 'createCheckout':
      return { buyer_id: deal.buyer.id, amount: 25.5, callback_url: 'https://shop.example.com/paid', metadata: { order: 'A-1042' } };
    case 'updateSettings':
      return { auto_payout: false };
    case 'updateClient':
      return { name: `Bad input probe ${s.marker}`, is_kyc_completed: true, fee_basis_points: 100, fee_cap: 20_000, auto_payout: false };
    case 'updateUser':
      return { first_name: 'Probe', last_name: 'Customer', phone: '+2348012345678', is_active: true };
    case 'updateTransaction':
      return { metadata: { order_id: `A-${s.marker.slice(0, 8)}` } };
    case 'replayWebhook':
      return { since: inDays(-1) };
    default:
      throw new Error(`No request body recipe for ${s.op.id}: add one to bad-input.test.ts`);
  }
}

/** Every query field is sent, so every one of them gets its bad values. */
export function queryOf(s: Staged): Query | null {
  const { deal } = s;
  switch (s.op.id) {
    case 'listUsers':
      return { page: '1', limit: '10', sort: 'DESC', search: 'Buyer', after: deal.seller.id };
    case 'listTransactions':
      return { user_id: deal.buyer.id, status: 'MILESTONE_PENDING_FUNDING', page: '1', limit: '10', sort: 'ASC', after: deal.transaction.id };
    case 'listDisputes':
      return { milestone_id: s.milestoneId, status: 'INTRA_PARTY_MEDIATION', page: '1', limit: '10', sort: 'DESC', after: s.disputeId! };
    case 'listBankAccounts':
      return { user_id: deal.buyer.id, page: '1', limit: '10', sort: 'DESC', after: s.bankAccountId! };
    case 'walletHistory':
      return { page: '1', limit: '10', after: s.entryId! };
    case 'getUser':
      return { include: 'wallet,transactions' };
    case 'getTransaction':
      return { include: 'milestone_logs,disputes,buyer_wallet' };
    case 'getWallet':
      return { include: 'history,user' };
    case 'walletStatement':
      return { from: '2026-01-01', to: '2030-01-01T00:00:00Z' };
    case 'operatorDisputes':
      return { status: 'ARBITRATION', page: '1', limit: '10', sort: 'ASC', after: s.disputeId! };
    case 'listEvents':
      return { type: 'transaction.created', transaction_id: deal.transaction.id, page: '1', limit: '10', sort: 'ASC', after: s.eventId! };
    case 'listWebhookDeliveries':
      return { status: 'pending', page: '1', limit: '10', sort: 'DESC', after: s.deliveryId! };
    case 'listPayouts':
      return { user_id: deal.buyer.id, status: 'PROCESSING', page: '1', limit: '10', after: s.payoutId! };
    case 'listCheckouts':
      return { user_id: deal.buyer.id, status: 'PENDING', page: '1', limit: '10' };
    case 'listEmails':
      return { status: 'kept', page: '1', limit: '10', sort: 'DESC', after: s.emailId! };
    case 'listClients':
      return { page: '1', limit: '10', sort: 'DESC', after: s.client.id };
    case 'reportOverview':
      return { months: '6' };
    case 'operatorReportOverview':
      return { client_id: s.client.id, months: '3' };
    case 'reconciliation':
      return { from: '2026-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' };
    default:
      if (s.op.query) throw new Error(`No query recipe for ${s.op.id}: add one to bad-input.test.ts`);
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// "Nothing changed": the deal, every record list of the client, every wallet's ledger entries

/**
 * The operator's ledger audit is global and other test files write to the same ledger at the same
 * time, so its entry count cannot be compared here; this client's ledger entries are, through the
 * wallet history of every one of its users (and the escrow balances in the deal snapshot).
 */
export async function stateOf(s: Staged): Promise<unknown> {
  const get = async (url: string, key = s.client.secretKey) => {
    const res = await http('GET', url, { key });
    expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  for (let attempt = 0; ; attempt++) {
    const deal = await snapshot(s.client, s.deal);
    if (!deal.includes('RATE_LIMITED') || attempt > 10) {
      const users = await get('/v1/users?page=1&limit=100&sort=ASC');
      const [transactions, disputes, accounts] = [await get('/v1/transactions?limit=100'), await get('/v1/dispute?limit=100'), await get('/v1/wallets/banks/list?limit=100')];
      const histories = [];
      for (const user of users.data.users as Array<{ id: string }>) histories.push(await get(`/v1/wallets/${user.id}/history?limit=100`));
      // A refused POST /v1/test-clock/advance must not move the clock (its wall-clock `now` moves anyway).
      const clockOffset = (await get('/v1/test-clock')).data.offset_ms;
      const probeClients =
        s.op.auth === 'operator'
          ? ((await get('/v1/operator/clients?sort=DESC&limit=100', operatorKey())).data.clients as Array<{ name: string }>).filter((c) => c.name.includes(s.marker))
          : [];
      return { deal: JSON.parse(deal), users, transactions, disputes, accounts, histories, probeClients, clockOffset };
    }
    await sleep(1000);
  }
}

/** Where two states differ, as a short list a person can read (the states themselves are long). */
function differences(before: unknown, after: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 12) return out;
  if (before !== null && after !== null && typeof before === 'object' && typeof after === 'object') {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) differences((before as Body)[key], (after as Body)[key], `${path}.${key}`, out);
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push(`${path}: ${clip(JSON.stringify(before) ?? 'undefined', 120)} → ${clip(JSON.stringify(after) ?? 'undefined', 120)}`);
  }
  return out;
}

export async function expectUnchanged(s: Staged, before: unknown) {
  expect(differences(before, await stateOf(s)), 'a refused request changed something').toEqual([]);
  const ledger = await ledgerIntegrity();
  expect(ledger).toMatchObject({ balanced: true, ledger_sum_kobo: 0, unbalanced_transfers: [], accounts_not_matching_entries: [], negative_accounts: [] });
}

// ---------------------------------------------------------------------------------------------
// Bad values, from the JSON Schema form of the operation's zod schema

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  example?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};

export const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

type Field = { path: Array<string | number>; name: string; schema: JsonSchema; required: boolean };

/** Every field of the request, nested ones (milestones.0.amount) included. */
export function fieldsOf(schema: JsonSchema, value: unknown, prefix: Array<string | number> = []): Field[] {
  const out: Field[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    out.push({ path, name: path.join('.'), schema: prop, required: (schema.required ?? []).includes(name) });
    const inner = (value as Body | undefined)?.[name];
    if (prop.properties && inner && typeof inner === 'object') out.push(...fieldsOf(prop, inner, path));
    if (prop.items?.properties && Array.isArray(inner) && inner[0]) out.push(...fieldsOf(prop.items, inner[0], [...path, 0]));
  }
  return out;
}

function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  for (const s of [schema, ...(schema.anyOf ?? [])]) {
    for (const t of [s.type ?? []].flat()) types.add(t === 'integer' ? 'number' : t);
  }
  return types;
}

const some = (schema: JsonSchema, test: (s: JsonSchema) => boolean) => [schema, ...(schema.anyOf ?? [])].some(test);

const REMOVE = Symbol('remove');
const RAW = '__raw_json_token__';

type BadValue = { kind: 'missing' | 'type' | 'text' | 'amount'; label: string; value: unknown; expected?: Expected };

/** Valid ISO 8601 whose instant falls in year 0 or 10000 in UTC: PostgreSQL cannot store either. */
const YEARS_POSTGRES_LACKS = ['0001-01-01T00:00:00+01:00', '9999-12-31T23:30:00-01:00'];

const NOT_UUIDS = (): Array<[string, string]> => {
  const id = randomUUID();
  return [
    ['"abc"', 'abc'],
    ['an empty string', ''],
    ['a UUID with a g in it', '00000000-0000-0000-0000-00000000000g'],
    ['SQL', "' or 1=1 --"],
    ['SQL that drops a table', "'; drop table parties; --"],
    ['a UUID without dashes', id.replaceAll('-', '')],
    ['a UUID with a trailing space', `${id} `],
    ['a UUID in braces', `{${id}}`],
    ['a UUID one character too long', `${id}0`],
    ['a path', '../../etc/passwd'],
  ];
};

const WRONG_TYPES: Array<[string, unknown, string]> = [
  ['a number', 12345, 'number'],
  ['a string', 'not the right type', 'string'],
  ['an object', { nested: true }, 'object'],
  ['an array', ['x'], 'array'],
  ['null', null, 'null'],
  ['true', true, 'boolean'],
  ['false', false, 'boolean'],
];

/** Number fields that count something other than naira. */
const NOT_NAIRA = new Set(['days']);

/** The bad values for one field; every one of them must be refused naming that field. */
function badValuesOf(field: Field, base: unknown): BadValue[] {
  const s = field.schema;
  const types = typesOf(s);
  const out: BadValue[] = [];
  if (field.required) out.push({ kind: 'missing', label: 'missing', value: REMOVE });
  for (const [label, value, type] of WRONG_TYPES) if (!types.has(type)) out.push({ kind: 'type', label, value });

  if (types.has('string')) {
    // 10 000 characters, or one more than the field allows when it allows that many (evidence text).
    const long = Math.max(10_000, ...[s, ...(s.anyOf ?? [])].map((x) => (x.maxLength ?? 0) + 1));
    out.push({ kind: 'text', label: long === 10_000 ? '10 000 characters' : `${long} characters (at most ${long - 1})`, value: 'x'.repeat(long) });
    if (some(s, (x) => (x.minLength ?? 0) > 0)) {
      out.push({ kind: 'text', label: 'an empty string', value: '' }, { kind: 'text', label: 'only spaces', value: '   ' });
    }
    if (some(s, (x) => x.format === 'uuid')) for (const [label, value] of NOT_UUIDS()) out.push({ kind: 'text', label, value });
    const values = s.enum as string[] | undefined;
    if (values) {
      const candidates: Array<[string, string]> = [
        ['"NOPE"', 'NOPE'],
        ['"UP"', 'UP'],
        ['an empty string', ''],
        ['a valid value with a trailing space', `${values[0]} `],
        ['a valid value in the other letter case', values[0]!.toLowerCase() === values[0] ? values[0]!.toUpperCase() : values[0]!.toLowerCase()],
      ];
      for (const [label, value] of candidates) if (!values.includes(value)) out.push({ kind: 'text', label, value });
    }
    if (some(s, (x) => x.format === 'uri')) {
      for (const value of ['not a url', 'ftp://example.com/proof.png', 'http://example.com/proof.png', 'javascript:alert(1)', 'https://', 'file:///etc/passwd']) {
        out.push({ kind: 'text', label: JSON.stringify(value), value });
      }
    }
    if (some(s, (x) => x.format === 'email')) {
      for (const value of ['not-an-email', 'a@b', '@example.com', 'ada@@example.com']) out.push({ kind: 'text', label: JSON.stringify(value), value });
    }
    if (some(s, (x) => x.format === 'date-time')) {
      for (const value of ['tomorrow', '2027-02-30T00:00:00Z', '2027-12-01', '2027-12-01T25:00:00Z', '1700000000', ...YEARS_POSTGRES_LACKS]) out.push({ kind: 'text', label: JSON.stringify(value), value });
    }
    if (some(s, (x) => !!x.pattern && !x.format)) {
      for (const value of ['abc', '١٢٣٤٥٦٧٨٩٠', '12 34']) out.push({ kind: 'text', label: `${JSON.stringify(value)} (does not match ${s.pattern})`, value });
    }
  }

  if (types.has('array')) {
    const arrays = [s, ...(s.anyOf ?? [])].filter((x) => x.type === 'array');
    const sample = Array.isArray(base) ? base[0] : base;
    for (const a of arrays) {
      if ((a.minItems ?? 0) > 0) out.push({ kind: 'text', label: 'an empty array', value: [] });
      if (a.maxItems !== undefined) out.push({ kind: 'text', label: `${a.maxItems + 1} items (at most ${a.maxItems})`, value: Array.from({ length: a.maxItems + 1 }, () => sample) });
      out.push({ kind: 'type', label: 'an array of a wrong type', value: [12345] });
    }
  }

  if (types.has('number')) {
    // Fractions of a kobo are bad amounts, not bad numbers: the test clock's days may be fractional.
    const kobo: Array<[string, unknown]> = NOT_NAIRA.has(field.name) ? [] : [['0.001 (a fraction of a kobo)', 0.001], ['1.005 (three decimals)', 1.005]];
    const amounts: Array<[string, unknown]> = [
      ['negative', -100],
      ['-0.01', -0.01],
      ...kobo,
      ['1e13', 1e13],
      ['1e308', 1e308],
      ['-1e308', -1e308],
      ['"NaN"', 'NaN'],
      ['"Infinity"', 'Infinity'],
      ['"-Infinity"', '-Infinity'],
      ['"100" (a string)', '100'],
    ];
    if (some(s, (x) => x.type === 'integer')) amounts.push(['1.5 (not whole)', 1.5]);
    for (const [label, value] of amounts) out.push({ kind: 'amount', label, value });
    // Numbers JSON.stringify cannot write: out of float range (parsed as ±Infinity) and not JSON at all.
    out.push({ kind: 'amount', label: 'the raw number 1e400', value: `${RAW}1e400` });
    out.push({ kind: 'amount', label: 'the raw number -1e400', value: `${RAW}-1e400` });
    for (const token of ['NaN', 'Infinity', '-Infinity', '0x10', '01', '.5', '+1']) {
      out.push({ kind: 'amount', label: `the bare token ${token} (not JSON)`, value: `${RAW}${token}`, expected: INVALID_JSON });
    }
  }
  return out;
}

function withValue<T>(base: T, path: Array<string | number>, value: unknown): T {
  const copy = structuredClone(base) as any;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  const last = path[path.length - 1]!;
  if (value === REMOVE) delete target[last];
  else target[last] = value;
  return copy;
}

const valueAt = (base: unknown, path: Array<string | number>) => path.reduce<any>((v, k) => v?.[k], base);

/** Body text with any raw token written in place of its marker string. */
function bodyText(body: Body): string {
  return JSON.stringify(body).replace(new RegExp(`"${RAW}([^"]*)"`), '$1');
}

export function bodyCases(op: Operation, base: Body, kinds: BadValue['kind'][]) {
  return fieldsOf(jsonSchemaOf(op.body!), base).flatMap((field) =>
    badValuesOf(field, valueAt(base, field.path))
      .filter((bad) => kinds.includes(bad.kind))
      .map((bad) => ({ field, bad, body: withValue(base, field.path, bad.value) })),
  );
}

async function refuseBodyCases(s: Staged, kinds: BadValue['kind'][]) {
  const req = validRequest(s);
  const cases = bodyCases(s.op, req.body!, kinds);
  expect(cases.length, 'no bad values generated').toBeGreaterThan(0);
  for (const { field, bad, body } of cases) {
    const text = bodyText(body);
    const res = await sendRaw(req, text, 'application/json');
    expectRefused(s.op, res, `${field.name} ${bad.label}: ${show(req, text)}`, bad.expected ?? VALIDATION(field.name));
    if (bad.kind === 'missing' && res.status === 400) {
      const error = (res.body as { errors?: Array<{ field: string; message: string }> }).errors?.find((e) => e.field === field.name);
      // common.ts: "a missing one still reads 'is required'", whatever the field's own message for a bad value.
      expect.soft(error?.message, `${field.name} missing: ${show(req, JSON.stringify(body))}\n  → ${clip(JSON.stringify(res.body))}`).toMatch(/required/);
    }
  }
}

export function queryCases(op: Operation, base: Query) {
  const schema = jsonSchemaOf(op.query!);
  const out: Array<{ field: string; label: string; query: Query }> = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const set = (label: string, value: string | typeof REMOVE) => out.push({ field: name, label, query: withValue(base, [name], value) });
    if ((schema.required ?? []).includes(name)) set('missing', REMOVE);
    if (prop.pattern === '^\\d{1,6}$') {
      for (const value of ['0', '-1', 'abc', '', '1.5', '1e3', '9999999', ' 1', '0x10', '½']) set(JSON.stringify(value), value);
      if (name === 'limit') set('"101" (at most 100)', '101');
    }
    if (prop.enum) for (const value of ['UP', 'NOPE', '', String(prop.enum[0]).toLowerCase()]) if (!prop.enum.includes(value)) set(JSON.stringify(value), value);
    if (prop.format === 'uuid') for (const [label, value] of NOT_UUIDS()) set(label, value);
    if (prop.format === 'date-time') for (const value of ['yesterday', '2026-13-01T00:00:00Z', '2026-11-25', '', '1764028800', '2026-11-25T25:00:00Z', ...YEARS_POSTGRES_LACKS]) set(JSON.stringify(value), value);
    // include= (lib/contracts/include.ts): an unknown, an empty or a trailing-comma name.
    if (name === 'include') for (const value of ['everything', '', ',', `${String(prop.example ?? '').split(',')[0]},nope`, `${String(prop.example ?? '')},`]) set(JSON.stringify(value), value);
    if (prop.maxLength !== undefined) {
      set(`${prop.maxLength + 1} characters`, 'x'.repeat(prop.maxLength + 1));
      set('10 000 characters', 'x'.repeat(10_000));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Uploads

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(56)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('This program cannot be run in DOS mode.')]);

function form(parts: Array<[string, Buffer | string, { type?: string; filename?: string }?]>): FormData {
  const f = new FormData();
  for (const [name, value, opts] of parts) {
    if (typeof value === 'string') f.append(name, value);
    else f.append(name, new Blob([new Uint8Array(value)], { type: opts?.type ?? '' }), opts?.filename ?? 'proof.bin');
  }
  return f;
}

// ---------------------------------------------------------------------------------------------
// The operations

const hasPathId = (op: Operation) => /\{[a-z_]+\}/.test(op.path);
export const targetOps = OPERATIONS.filter((op) => op.body || op.query || op.multipart || hasPathId(op));
export const jsonBodyOps = OPERATIONS.filter((op) => op.body && !op.multipart);
export const pathIdOps = OPERATIONS.filter(hasPathId);

/** Placeholder records, to ask what an operation's request looks like without a server. */
export function placeholderStaged(op: Operation, proofBase = 'http://localhost'): Staged {
  const client: TestClient = { id: randomUUID(), secretKey: 'sk_test_placeholder', publicKey: 'pk_test_placeholder' };
  const deal = { buyer: { id: randomUUID() }, seller: { id: randomUUID() }, transaction: { id: randomUUID() }, milestoneIds: [randomUUID()] } as unknown as Deal;
  return { op, client, deal, milestoneId: randomUUID(), disputeId: randomUUID(), proof: `${proofBase}/v1/files/${randomUUID()}`, fileId: randomUUID(), marker: 'x', webhookId: randomUUID(), deliveryId: randomUUID(), bankAccountId: randomUUID(), payoutId: randomUUID(), checkoutId: randomUUID(), emailId: randomUUID(), eventId: randomUUID(), entryId: randomUUID() };
}

const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const namesIds = (req: Req) => new RegExp(UUID_PATTERN.source).test(JSON.stringify([req.path, req.query, req.body]));

/**
 * The files the operations' suites are split over, by tag, so that they run side by side; `accounts` takes every tag the
 * others do not name. bad-input.test.ts checks each operation is in exactly one.
 */
export const BAD_INPUT_PARTS = {
  deals: ['Transactions', 'Milestones'],
  disputes: ['Disputes'],
  accounts: 'every other tag',
} as const satisfies Record<string, readonly Tag[] | 'every other tag'>;
export type BadInputPart = keyof typeof BAD_INPUT_PARTS;

/** The bad-input file an operation's suites are in. */
export function partOf(op: Operation): BadInputPart {
  const named = Object.entries(BAD_INPUT_PARTS).find(([, tags]) => Array.isArray(tags) && (tags as readonly Tag[]).includes(op.tag));
  return (named?.[0] as BadInputPart | undefined) ?? 'accounts';
}

/** Each bad input sent by this file, by operation: printed when the file ends. */
export function reportBadInputCounts(file: string): void {
  afterAll(() => {
    const lines = [...perOperation.entries()].map(([id, n]) => `  ${id}: ${n}`);
    console.log(`${file} sent ${badInputs} bad inputs, each refused or reported:\n${lines.join('\n')}`);
  });
}

/** Every suite of bad input for the target operations of one part. */
export function badInputSuites(part: BadInputPart): void {
  const ops = targetOps.filter((op) => partOf(op) === part);
  describe.each(ops.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', (_name, op) => {
    let s: Staged;
    const fields = op.body ? fieldsOf(jsonSchemaOf(op.body), {}) : [];
    const hasAmounts = op.body ? JSON.stringify(jsonSchemaOf(op.body)).match(/"type":"(number|integer)"/) !== null : false;
    // Only numbers (POST /v1/test-clock/advance) leave nothing for the text cases.
    const hasTexts = fields.some((f) => typesOf(f.schema).has('string') || typesOf(f.schema).has('array'));

    beforeAll(async () => {
      s = await stage(op, await newClient());
    });

    if (op.body && !op.multipart) {
      if (fields.some((f) => f.required)) {
        it('refuses each required field missing, with 400 naming it', async () => {
          const before = await stateOf(s);
          await refuseBodyCases(s, ['missing']);
          await expectUnchanged(s, before);
        });
      }

      it('refuses each field with the wrong type (number, string, object, array, null, boolean), with 400 naming it', async () => {
        const before = await stateOf(s);
        await refuseBodyCases(s, ['type']);
        await expectUnchanged(s, before);
      });

      if (hasTexts) {
        it('refuses over-long and blank strings, non-UUID ids, unknown enum values, bad URLs, emails, dates and patterns, with 400 naming the field', async () => {
          const before = await stateOf(s);
          await refuseBodyCases(s, ['text']);
          await expectUnchanged(s, before);
        });
      }

      if (hasAmounts) {
        it('refuses negative, fractional-kobo, absurd, non-finite and stringly amounts, with 400', async () => {
          const before = await stateOf(s);
          await refuseBodyCases(s, ['amount']);
          await expectUnchanged(s, before);
        });
      }

      it('refuses malformed JSON and bodies that are not a JSON object, with 400; over 1 MB with 413', async () => {
        const before = await stateOf(s);
        const req = validRequest(s);
        const text = JSON.stringify(req.body);
        const firstField = Object.keys(req.body!)[0]!;
        const flat = new URLSearchParams(Object.entries(req.body!).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
        const cases: Array<[string, string | Uint8Array<ArrayBuffer>, Expected]> = [
          ['truncated JSON', text.slice(0, Math.floor(text.length / 2)), INVALID_JSON],
          ['a trailing comma', text.replace(/}$/, ',}'), INVALID_JSON],
          ['single quotes', text.replaceAll('"', "'"), INVALID_JSON],
          ['a comment', `/* note */ ${text}`, INVALID_JSON],
          ['a bare NaN in an extra field', text.replace(/}$/, ',"extra":NaN}'), INVALID_JSON],
          ['two objects', `${text}${text}`, INVALID_JSON],
          ['form encoding under a JSON content type', flat, INVALID_JSON],
          ['a top-level array holding the valid body', `[${text}]`, NOT_AN_OBJECT],
          ['an empty top-level array', '[]', NOT_AN_OBJECT],
          ['a bare string', '"hello"', NOT_AN_OBJECT],
          ['a bare number', '42', NOT_AN_OBJECT],
          ['null', 'null', NOT_AN_OBJECT],
          ['true', 'true', NOT_AN_OBJECT],
          ['an empty body', '', NOT_AN_OBJECT],
          ['only whitespace', ' \n\t ', NOT_AN_OBJECT],
          // Read as an object whose one key is replacement characters: not a field of any body.
          ['bytes that are not UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), { status: 400, codes: [...NOT_AN_OBJECT.codes, 'UNKNOWN_FIELD'] }],
          // The field's own value moves to an unknown "_was": UNKNOWN_FIELD names it, then the field at fault.
          [`${firstField} nested 10 000 arrays deep`, text.replace(/^\{("[^"]+"):/, `{$1:${'['.repeat(10_000)}${']'.repeat(10_000)},"_was":`), { status: 400, codes: ['UNKNOWN_FIELD'], field: firstField }],
          ['a body over 1 MB', text.replace(/}$/, `,"padding":"${'x'.repeat(1_100_000)}"}`), TOO_LARGE],
        ];
        // A body with no required field (a key roll's) reads an empty body as {}: a valid request, not a bad one.
        const emptyIsValid = (jsonSchemaOf(op.body!).required ?? []).length === 0;
        const emptyObjects = new Set(['an empty body', 'only whitespace']);
        for (const [label, body, expected] of cases) {
          if (emptyIsValid && emptyObjects.has(label)) continue;
          const res = await sendRaw(req, body, 'application/json');
          expectRefused(op, res, `${label}: ${show(req, typeof body === 'string' ? body : undefined)}`, expected);
        }
        await expectUnchanged(s, before);
      });

      it('refuses the valid body under any content type but application/json, with 415', async () => {
        const before = await stateOf(s);
        const req = validRequest(s);
        const text = JSON.stringify(req.body);
        const fields = Object.entries(req.body!).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
        const cases: Array<[string, BodyInit, string | null]> = [
          ['text/plain', text, 'text/plain'],
          ['application/x-www-form-urlencoded', new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded'],
          ['no Content-Type at all', new TextEncoder().encode(text), null],
          ['multipart/form-data', form(fields), null],
          ['application/xml', `<request>${text}</request>`, 'application/xml'],
          ['text/html', text, 'text/html'],
          ['application/octet-stream', text, 'application/octet-stream'],
        ];
        for (const [label, body, contentType] of cases) {
          const res = await sendRaw(req, body, contentType);
          expectRefused(op, res, `${label}: ${show(req, typeof body === 'string' ? body : undefined)}`, UNSUPPORTED);
        }
        await expectUnchanged(s, before);
      });
    }

    if (op.query) {
      it('refuses bad query values (page 0, -1, abc; limit 0, 101; unknown sort and status; malformed ids; over-long text), with 400 naming the parameter', async () => {
        const before = await stateOf(s);
        const req = validRequest(s);
        const cases = queryCases(op, req.query!);
        expect(cases.length).toBeGreaterThan(0);
        for (const c of cases) {
          const bad = { ...req, query: c.query };
          const res = await sendJson(bad);
          expectRefused(op, res, `${c.field} ${c.label}: ${show(bad)}`, VALIDATION(c.field));
        }
        await expectUnchanged(s, before);
      });
    }

    if (hasPathId(op)) {
      it('refuses path ids that are not UUIDs, with 400 naming the id', async () => {
        const before = await stateOf(s);
        const req = validRequest(s);
        const id = randomUUID();
        const badIds: Array<[string, string]> = [
          ['"abc"', 'abc'],
          ['a UUID with a g in it', '00000000-0000-0000-0000-00000000000g'],
          ['SQL', encodeURIComponent("' or 1=1 --")],
          ['SQL that drops a table', encodeURIComponent("'; drop table milestones; --")],
          ['a UUID without dashes', id.replaceAll('-', '')],
          ['a UUID one character short', id.slice(0, -1)],
          ['a UUID with a trailing encoded space', `${id}%20`],
          ['an encoded NUL byte', '%00'],
          ['an emoji', encodeURIComponent('😀')],
          ['300 characters', 'x'.repeat(300)],
        ];
        for (const [label, bad] of badIds) {
          const badReq = { ...req, path: pathOf(s, bad) };
          const res = await sendJson(badReq);
          expectRefused(op, res, `path id ${label}: ${show(badReq)}`, VALIDATION());
          const fields = ((res.body as { errors?: Array<{ field: string }> })?.errors ?? []).map((e) => e.field);
          expect.soft(fields.some((f) => f.endsWith('_id')), `path id ${label}: ${JSON.stringify(res.body)} should name the id`).toBe(true);
        }
        await expectUnchanged(s, before);
      });
    }

    if (op.multipart) {
      it('refuses bad uploads: JSON or no multipart (415), no file field or an empty file (400), 10 MB + 1 byte (413), HTML, SVG, executables and a PDF under image types (415)', async () => {
        const before = await stateOf(s);
        const req = validRequest(s);
        const cases: Array<[string, BodyInit, string | null, Expected]> = [
          ['a JSON body', JSON.stringify({ file: PNG.toString('base64') }), 'application/json', UNSUPPORTED],
          ['the PNG bytes as the raw body, image/png', new Uint8Array(PNG), 'image/png', UNSUPPORTED],
          ['text/plain', 'hello', 'text/plain', UNSUPPORTED],
          ['no Content-Type at all', new Uint8Array(PNG), null, UNSUPPORTED],
          ['no file field (only a note)', form([['note', 'no file here']]), null, { status: 400, codes: ['UNKNOWN_FIELD'], field: 'file' }],
          ['the file under another field name', form([['upload', PNG, { type: 'image/png', filename: 'proof.png' }]]), null, { status: 400, codes: ['UNKNOWN_FIELD'], field: 'file' }],
          ['a text value in the file field', form([['file', 'iVBORw0KGgo=']]), null, VALIDATION('file')],
          ['a 0-byte file', form([['file', Buffer.alloc(0), { type: 'image/png', filename: 'empty.png' }]]), null, VALIDATION('file')],
          ['multipart with a boundary that is not in the body', 'not multipart at all', 'multipart/form-data; boundary=nothing-here', VALIDATION('file')],
          ['multipart with no boundary', 'not multipart at all', 'multipart/form-data', VALIDATION('file')],
          [`a file of ${MAX_UPLOAD_BYTES + 1} bytes (10 MB + 1)`, form([['file', Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - PNG.length)]), { type: 'image/png', filename: 'big.png' }]]), null, TOO_LARGE],
          ['an HTML page declared image/png', form([['file', HTML, { type: 'image/png', filename: 'proof.png' }]]), null, UNSUPPORTED],
          ['an SVG with a script declared image/png', form([['file', SVG, { type: 'image/png', filename: 'proof.png' }]]), null, UNSUPPORTED],
          ['a Windows EXE declared image/png', form([['file', EXE, { type: 'image/png', filename: 'proof.png' }]]), null, UNSUPPORTED],
          ['a Linux ELF declared image/png', form([['file', ELF, { type: 'image/png', filename: 'proof.png' }]]), null, UNSUPPORTED],
          ['a PDF declared image/jpeg', form([['file', PDF, { type: 'image/jpeg', filename: 'proof.jpg' }]]), null, UNSUPPORTED],
          ['an HTML page declared text/html', form([['file', HTML, { type: 'text/html', filename: 'proof.html' }]]), null, UNSUPPORTED],
        ];
        for (const [label, body, contentType, expected] of cases) {
          const res = await sendRaw(req, body, contentType);
          expectRefused(op, res, `${label}: ${req.method} ${req.path}`, expected);
        }
        await expectUnchanged(s, before);
      });
    }

    if (!op.multipart && op.auth === 'client' && namesIds(validRequest(placeholderStaged(op)))) {
      it('accepts every id in upper case as the same id (UUIDs are case-insensitive)', async () => {
        const fresh = await stage(op, s.client);
        const req = validRequest(fresh);
        const upper = JSON.parse(JSON.stringify(req).replace(UUID_PATTERN, (id) => id.toUpperCase())) as Req;
        const lower = op.method === 'get' ? await sendJson(req) : undefined;
        const res = await sendJson(upper);
        expect(res.status, `${show(upper)}\n  → ${res.status} ${clip(JSON.stringify(res.body))}`).toBe(200);
        if (lower) expect(res.body).toEqual(lower.body);
      });
    }

    it('refuses one unknown body field (400 UNKNOWN_FIELD, nothing changed), then succeeds without it (an unknown query parameter is ignored), proving the refusals above were the bad input', async () => {
      const req = validRequest(s);
      const upload = (...extra: Array<[string, string]>) => form([['file', PNG, { type: 'image/png', filename: 'proof.png' }], ...extra]);
      let res: ApiResponse;
      if (op.multipart || op.body) {
        const before = await stateOf(s);
        const refused = op.multipart ? await sendRaw(req, upload(['unexpected_field', 'x']), null) : await sendJson({ ...req, body: { ...req.body, unexpected_field: 'x' } });
        expectRefused(op, refused, `${show(req)} + unexpected_field`, { status: 400, codes: ['UNKNOWN_FIELD'], field: 'unexpected_field' });
        await expectUnchanged(s, before);
        res = op.multipart ? await sendRaw(req, upload(), null) : await sendJson(req);
      } else {
        res = await sendJson({ ...req, query: { ...req.query, unexpected_field: 'ignored' } });
      }
      expect(res.status, `${show(req)}\n  → ${res.status} ${clip(typeof res.body === 'string' ? res.body : JSON.stringify(res.body))}`).toBe(200);
      if (!op.binaryResponse) expectOk(res);
    });
  });
}
