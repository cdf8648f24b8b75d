import 'server-only';
import type { z } from 'zod';
import type { CreateDisputeBody } from '@/lib/contracts/disputes';
import type { DeliverBody, RejectDeliveryBody } from '@/lib/contracts/milestones';
import type * as D from '@/lib/contracts/dashboard';
import type * as R from '@/lib/contracts/records';
import type { CreateTransactionBody } from '@/lib/contracts/transactions';
import type { CreateUserBody } from '@/lib/contracts/users';
import type * as DD from '@/lib/contracts/dashboard-disputes';
import { apiCredentials, demoClientCredentials, operatorCredentials } from './credentials';

export type FieldError = { field: string; message: string };
export type ApiSuccess<T> = { ok: true; status: number; message: string; data: T };
export type ApiFailure = { ok: false; status: number; code: string; message: string; errors?: FieldError[] };
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

type Query = Record<string, string | number | undefined>;
type RequestOptions = { query?: Query; body?: unknown; form?: FormData; idempotencyKey?: string; operator?: boolean };

const TIMEOUT_MS = 30_000;

function url(apiUrl: string, path: string, query?: Query): string {
  const target = new URL(`${apiUrl}${path}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') target.searchParams.set(key, String(value));
  }
  return target.toString();
}

class OperatorKeyMissing extends Error {}

async function send(method: 'GET' | 'POST' | 'PATCH', path: string, opts: RequestOptions = {}): Promise<Response> {
  const credentials = opts.operator ? operatorCredentials() : await apiCredentials();
  if (!credentials) throw new OperatorKeyMissing();
  const { apiUrl, secretKey } = credentials;
  const headers: Record<string, string> = { authorization: secretKey, accept: 'application/json' };
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  return fetch(url(apiUrl, path, opts.query), { method, headers, body, cache: 'no-store', signal: AbortSignal.timeout(TIMEOUT_MS) });
}

async function request<T>(method: 'GET' | 'POST' | 'PATCH', path: string, opts: RequestOptions = {}): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await send(method, path, opts);
  } catch (error) {
    if (error instanceof OperatorKeyMissing) {
      return { ok: false, status: 503, code: 'OPERATOR_KEY_MISSING', message: 'The dispute team area needs ESCROW_OPERATOR_KEY set on this server.' };
    }
    console.error(JSON.stringify({ level: 'error', msg: 'escrow API unreachable', path, error: String(error) }));
    return { ok: false, status: 503, code: 'API_UNREACHABLE', message: 'The escrow service could not be reached. Try again in a moment.' };
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    return { ok: false, status: response.status, code: 'BAD_RESPONSE', message: `The escrow service answered ${response.status} without a readable body.` };
  }
  const envelope = payload as { status?: boolean; message?: string; data?: T; code?: string; errors?: FieldError[] };
  if (response.ok && envelope.status === true) {
    return { ok: true, status: response.status, message: envelope.message ?? 'Done', data: envelope.data as T };
  }
  return {
    ok: false,
    status: response.status,
    code: envelope.code ?? 'UNKNOWN',
    message: envelope.message ?? `The escrow service answered ${response.status}.`,
    ...(envelope.errors ? { errors: envelope.errors } : {}),
  };
}

const id = (value: string) => encodeURIComponent(value);

type In<T extends z.ZodType> = z.input<T>;
type Paging = { page?: number; limit?: number };

/** The one typed client of the /v1 API. Server-only: the secret key never leaves this process. */
export const escrow = {
  users: {
    list: (q: { page: number; limit: number; sort: 'ASC' | 'DESC'; search?: string }) => request<D.UserList>('GET', '/users', { query: q }),
    get: (userId: string) => request<D.User>('GET', `/users/${id(userId)}`),
    create: (body: In<typeof CreateUserBody>, idempotencyKey: string) => request<D.CreatedUser>('POST', '/users', { body, idempotencyKey }),
  },
  transactions: {
    list: (q: Paging & { user_id?: string; status?: string; sort?: 'ASC' | 'DESC' }) => request<D.TransactionList>('GET', '/transactions', { query: q }),
    get: (transactionId: string) => request<D.Transaction>('GET', `/transactions/${id(transactionId)}`),
    create: (body: In<typeof CreateTransactionBody>, idempotencyKey: string) =>
      request<D.Transaction>('POST', '/transactions', { body, idempotencyKey }),
  },
  milestones: {
    get: (milestoneId: string) => request<D.Milestone>('GET', `/milestones/${id(milestoneId)}`),
    fund: (milestoneId: string, body: { buyer_id: string }, idempotencyKey: string) =>
      request<R.MilestoneRecord>('POST', `/milestones/${id(milestoneId)}/fund`, { body, idempotencyKey }),
    deliver: (milestoneId: string, body: In<typeof DeliverBody>, idempotencyKey: string) =>
      request<R.MilestoneRecord>('POST', `/milestones/${id(milestoneId)}/deliver`, { body, idempotencyKey }),
    approve: (milestoneId: string, body: { buyer_id: string }, idempotencyKey: string) =>
      request<R.MilestoneRecord>('POST', `/milestones/${id(milestoneId)}/approve`, { body, idempotencyKey }),
    reject: (milestoneId: string, body: In<typeof RejectDeliveryBody>, idempotencyKey: string) =>
      request<R.MilestoneRecord>('POST', `/milestones/${id(milestoneId)}/reject`, { body, idempotencyKey }),
    approveReturn: (milestoneId: string, body: { seller_id: string }, idempotencyKey: string) =>
      request<R.MilestoneRecord>('PATCH', `/milestones/${id(milestoneId)}/reject/approve`, { body, idempotencyKey }),
    disapproveReturn: (milestoneId: string, body: { seller_id: string }, idempotencyKey: string) =>
      request<R.MilestoneRecord>('PATCH', `/milestones/${id(milestoneId)}/reject/disapprove`, { body, idempotencyKey }),
  },
  disputes: {
    create: (body: In<typeof CreateDisputeBody>, idempotencyKey: string) => request<D.DisputeSummary>('POST', '/dispute/create', { body, idempotencyKey }),
    list: (q: Paging & { milestone_id?: string; status?: string }) => request<{ disputes: D.DisputeSummary[]; pagination: D.Pagination }>('GET', '/dispute', { query: q }),
    get: (disputeId: string) => request<D.Dispute>('GET', `/dispute/${id(disputeId)}`),
    addAmount: (disputeId: string, body: { dispute_amount: number; seller_id: string }, idempotencyKey: string) =>
      request<D.Dispute>('PATCH', `/dispute/${id(disputeId)}/add-dispute-amount`, { body, idempotencyKey }),
    approveAmount: (disputeId: string, body: { buyer_id: string }, idempotencyKey: string) =>
      request<D.Dispute>('PATCH', `/dispute/${id(disputeId)}/approve-dispute-amount`, { body, idempotencyKey }),
    rejectAmount: (disputeId: string, body: { buyer_id: string; reason?: string }, idempotencyKey: string) =>
      request<D.Dispute>('PATCH', `/dispute/${id(disputeId)}/reject-dispute-amount`, { body, idempotencyKey }),
    escalate: (disputeId: string, body: { buyer_id: string } | { seller_id: string }, idempotencyKey: string) =>
      request<D.Dispute>('PATCH', `/dispute/${id(disputeId)}/escalate`, { body, idempotencyKey }),
    submitEvidence: (disputeId: string, body: ({ buyer_id: string } | { seller_id: string }) & { text: string; files: string[] }, idempotencyKey: string) =>
      request<D.Dispute>('POST', `/dispute/${id(disputeId)}/evidence`, { body, idempotencyKey }),
    cancel: (disputeId: string, body: { seller_id: string; cancellation_agreement_details: string }, idempotencyKey: string) =>
      request<D.Dispute>('PATCH', `/dispute/${id(disputeId)}/cancel`, { body, idempotencyKey }),
  },
  /** The dispute team's routes, with the operator key (never the client key, never in the browser). */
  operator: {
    disputes: (q: Paging & { status?: string; client_id?: string }) => request<DD.OperatorDisputeList>('GET', '/operator/disputes', { query: q, operator: true }),
    dispute: (disputeId: string) => request<DD.OperatorDispute>('GET', `/operator/disputes/${id(disputeId)}`, { operator: true }),
    verdict: (disputeId: string, body: { seller_amount: number; reason: string }, idempotencyKey: string) =>
      request<DD.OperatorDispute>('POST', `/operator/disputes/${id(disputeId)}/verdict`, { body, idempotencyKey, operator: true }),
  },
  testClock: {
    get: () => request<DD.TestClock>('GET', '/test-clock'),
    advance: (body: { seconds: number }, idempotencyKey: string) => request<DD.TestClock>('POST', '/test-clock/advance', { body, idempotencyKey }),
  },
  events: {
    list: (q: Paging & { after?: string; sort?: 'ASC' | 'DESC'; type?: string; transaction_id?: string }) =>
      request<DD.EventList>('GET', '/events', { query: q }),
  },
  webhooks: {
    list: () => request<{ webhooks: DD.WebhookEndpoint[] }>('GET', '/webhooks'),
    create: (body: { url: string; description?: string }, idempotencyKey: string) =>
      request<DD.WebhookEndpointWithSecret>('POST', '/webhooks', { body, idempotencyKey }),
    deliveries: (webhookId: string, q: Paging & { status?: string } = {}) =>
      request<DD.WebhookDeliveryList>('GET', `/webhooks/${id(webhookId)}/deliveries`, { query: q }),
    resend: (webhookId: string, deliveryId: string, idempotencyKey?: string) =>
      request<DD.WebhookDelivery>('POST', `/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/resend`, { idempotencyKey }),
  },
  wallets: {
    fund: (body: { user_id: string; amount: number }, idempotencyKey: string) =>
      request<D.Wallet>('POST', '/wallets/fund', { body, idempotencyKey }),
    get: (userId: string) => request<D.Wallet>('GET', `/wallets/${id(userId)}`),
    history: (userId: string, q: Paging = {}) => request<D.WalletHistory>('GET', `/wallets/${id(userId)}/history`, { query: q }),
  },
  banks: {
    list: () => request<D.Bank[]>('GET', '/wallets/banks'),
    validate: (body: { account_number: string; bank_code: string }) => request<D.NameEnquiry>('POST', '/wallets/banks/validate', { body }),
    save: (body: { account_number: string; bank_code: string; user_id: string }, idempotencyKey: string) =>
      request<R.BankAccountRecord>('POST', '/wallets/banks/disbursement', { body, idempotencyKey }),
    listAccounts: (q: Paging & { user_id?: string; sort?: 'ASC' | 'DESC' }) => request<D.BankAccountList>('GET', '/wallets/banks/list', { query: q }),
  },
  files: {
    upload: (file: File, idempotencyKey: string) => {
      const form = new FormData();
      form.set('file', file, file.name);
      return request<R.FileRecord>('POST', '/files', { form, idempotencyKey });
    },
    /** The raw response (bytes and headers), for the dashboard's session-checked proxy. */
    read: (fileId: string) => send('GET', `/files/${id(fileId)}`),
  },
};

/**
 * The client the dashboard acts for. The API has no "who am I" operation, so: the demo client's id when
 * running on the demo key, else the clientId of the client's first user (undefined while it has none).
 */
const knownClientIds = new Map<string, string>();

export async function dashboardClientId(): Promise<string | undefined> {
  const [{ secretKey }, demo] = await Promise.all([apiCredentials(), demoClientCredentials()]);
  if (demo && demo.secret_key === secretKey) return demo.client_id;
  const known = knownClientIds.get(secretKey);
  if (known) return known;
  const first = await escrow.users.list({ page: 1, limit: 1, sort: 'ASC' });
  const clientId = first.ok ? first.data.users[0]?.clientId : undefined;
  if (clientId) knownClientIds.set(secretKey, clientId);
  return clientId;
}
