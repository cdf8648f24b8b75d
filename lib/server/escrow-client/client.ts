import 'server-only';
import { hc, type ClientRequestOptions, type ClientResponse, type InferRequestType } from 'hono/client';
import type { EscrowApi } from '@/lib/api/app';
import { dashboardEnv } from '../dashboard/config';
import { clientCredentials, CredentialsMissing, operatorCredentials, type ApiCredentials } from './credentials';
import { log } from '../logger';

export type FieldError = { field: string; message: string };
export type ApiSuccess<T> = { ok: true; status: number; message: string; data: T };
export type ApiFailure = { ok: false; status: number; code: string; message: string; errors?: FieldError[] };
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

/**
 * The /v1 operations as the app defines them (lib/api): each method below names its operation once, and
 * its path, query, body and answer types all come from that definition.
 */
type Api = ReturnType<typeof hc<EscrowApi>>;
type Endpoint = (args: never, options?: ClientRequestOptions) => Promise<ClientResponse<unknown, number, string>>;
/** What an operation takes (query, json, param). */
type In<E extends Endpoint> = InferRequestType<E>;
/**
 * A query as the dashboard holds it: its parameters by name, numbers where the wire has digits, a form's
 * filter as typed (the API judges its value), and blanks meaning "not set".
 */
type QueryOf<E extends Endpoint> = In<E> extends { query: infer Q } ? { [K in keyof Q]?: string | number } : never;
type BodyOf<E extends Endpoint> = In<E> extends { json: infer B } ? B : never;
/** The data of an operation's success. */
type DataOf<R> = R extends ClientResponse<infer T, 200, 'json'> ? (T extends { data: infer D } ? D : never) : never;

const TIMEOUT_MS = 30_000;

/** Query values as the wire carries them; unset and blank ones left out. */
function queryOf(query: Record<string, string | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') out[key] = String(value);
  return out;
}

/** A path id goes into the URL escaped: it may come from the dashboard's own URL. */
const id = (value: string) => encodeURIComponent(value);

type SendOptions = { idempotencyKey?: string };
type Credentials = () => Promise<ApiCredentials>;
type Call<R> = (api: Api, options: ClientRequestOptions) => Promise<R>;

async function send<R extends ClientResponse<unknown, number, string>>(credentials: Credentials, call: Call<R>, opts: SendOptions = {}): Promise<R> {
  const { apiUrl, secretKey } = await credentials();
  const headers: Record<string, string> = { authorization: secretKey, accept: 'application/json' };
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  return call(hc<EscrowApi>(apiUrl), { headers, init: { cache: 'no-store', signal: AbortSignal.timeout(TIMEOUT_MS) } });
}

async function requestWith<R extends ClientResponse<unknown, number, string>>(credentials: Credentials, call: Call<R>, opts: SendOptions = {}): Promise<ApiResult<DataOf<R>>> {
  let response: Response;
  try {
    response = await send(credentials, call, opts);
  } catch (error) {
    if (error instanceof CredentialsMissing) return { ok: false, status: 503, code: error.code, message: error.message };
    log.error({ msg: 'escrow API unreachable', error: String(error) });
    return { ok: false, status: 503, code: 'API_UNREACHABLE', message: 'The escrow service could not be reached. Try again in a moment.' };
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    return { ok: false, status: response.status, code: 'BAD_RESPONSE', message: `The escrow service answered ${response.status} without a readable body.` };
  }
  const envelope = payload as { status?: boolean; message?: string; data?: DataOf<R>; code?: string; errors?: FieldError[] };
  if (response.ok && envelope.status === true) {
    return { ok: true, status: response.status, message: envelope.message ?? 'Done', data: envelope.data as DataOf<R> };
  }
  return {
    ok: false,
    status: response.status,
    code: envelope.code ?? 'UNKNOWN',
    message: envelope.message ?? `The escrow service answered ${response.status}.`,
    ...(envelope.errors ? { errors: envelope.errors } : {}),
  };
}

type A = Api;

/**
 * The typed client of a client's /v1 operations, acting with that client's secret key and no other
 * (docs/decisions.md §14: each admin acts with its own client's key). Server-only: the key never leaves this process.
 */
export function escrowFor(scope: { clientId: string }) {
  return clientApi(() => clientCredentials(scope.clientId));
}

/** With a key the dashboard does not hold yet: the operator checks a client's key before storing it. */
export function escrowWithKey(secretKey: string) {
  return clientApi(async () => ({ apiUrl: dashboardEnv().apiUrl, secretKey }));
}

function clientApi(credentials: Credentials) {
  const request = <R extends ClientResponse<unknown, number, string>>(call: Call<R>, opts?: SendOptions) => requestWith(credentials, call, opts);
  return {
  users: {
    list: (q: QueryOf<A['users']['$get']>) => request((api, o) => api.users.$get({ query: queryOf(q) as In<A['users']['$get']>['query'] }, o)),
    get: (userId: string) => request((api, o) => api.users[':id'].$get({ param: { id: id(userId) } }, o)),
    create: (body: BodyOf<A['users']['$post']>, idempotencyKey: string) => request((api, o) => api.users.$post({ json: body }, o), { idempotencyKey }),
    update: (userId: string, body: BodyOf<A['users'][':id']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.users[':id'].$patch({ param: { id: id(userId) }, json: body }, o), { idempotencyKey }),
  },
  transactions: {
    list: (q: QueryOf<A['transactions']['$get']>) =>
      request((api, o) => api.transactions.$get({ query: queryOf(q) as In<A['transactions']['$get']>['query'] }, o)),
    get: (transactionId: string) => request((api, o) => api.transactions[':id'].$get({ param: { id: id(transactionId) } }, o)),
    create: (body: BodyOf<A['transactions']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.transactions.$post({ json: body }, o), { idempotencyKey }),
    cancel: (transactionId: string, body: BodyOf<A['transactions'][':id']['cancel']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.transactions[':id'].cancel.$post({ param: { id: id(transactionId) }, json: body }, o), { idempotencyKey }),
    approveCancellation: (transactionId: string, body: BodyOf<A['transactions'][':id']['cancel']['approve']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.transactions[':id'].cancel.approve.$post({ param: { id: id(transactionId) }, json: body }, o), { idempotencyKey }),
    declineCancellation: (transactionId: string, body: BodyOf<A['transactions'][':id']['cancel']['decline']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.transactions[':id'].cancel.decline.$post({ param: { id: id(transactionId) }, json: body }, o), { idempotencyKey }),
    rate: (transactionId: string, body: BodyOf<A['transactions'][':id']['ratings']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.transactions[':id'].ratings.$post({ param: { id: id(transactionId) }, json: body }, o), { idempotencyKey }),
    terminate: (transactionId: string, body: BodyOf<A['transactions'][':id']['terminate']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.transactions[':id'].terminate.$post({ param: { id: id(transactionId) }, json: body }, o), { idempotencyKey }),
  },
  milestones: {
    get: (milestoneId: string) => request((api, o) => api.milestones[':id'].$get({ param: { id: id(milestoneId) } }, o)),
    fund: (milestoneId: string, body: BodyOf<A['milestones'][':id']['fund']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].fund.$post({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    deliver: (milestoneId: string, body: BodyOf<A['milestones'][':id']['deliver']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].deliver.$post({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    approve: (milestoneId: string, body: BodyOf<A['milestones'][':id']['approve']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].approve.$post({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    reject: (milestoneId: string, body: BodyOf<A['milestones'][':id']['reject']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].reject.$post({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    approveReturn: (milestoneId: string, body: BodyOf<A['milestones'][':id']['reject']['approve']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].reject.approve.$patch({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    disapproveReturn: (milestoneId: string, body: BodyOf<A['milestones'][':id']['reject']['disapprove']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].reject.disapprove.$patch({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    requestExtension: (milestoneId: string, body: BodyOf<A['milestones'][':id']['extensions']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].extensions.$post({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    approveExtension: (milestoneId: string, body: BodyOf<A['milestones'][':id']['extensions']['approve']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].extensions.approve.$patch({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
    declineExtension: (milestoneId: string, body: BodyOf<A['milestones'][':id']['extensions']['decline']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.milestones[':id'].extensions.decline.$patch({ param: { id: id(milestoneId) }, json: body }, o), { idempotencyKey }),
  },
  disputes: {
    create: (body: BodyOf<A['dispute']['create']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.dispute.create.$post({ json: body }, o), { idempotencyKey }),
    list: (q: QueryOf<A['dispute']['$get']>) => request((api, o) => api.dispute.$get({ query: queryOf(q) as In<A['dispute']['$get']>['query'] }, o)),
    get: (disputeId: string) => request((api, o) => api.dispute[':id'].$get({ param: { id: id(disputeId) } }, o)),
    addAmount: (disputeId: string, body: BodyOf<A['dispute'][':id']['add-dispute-amount']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id']['add-dispute-amount'].$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    approveAmount: (disputeId: string, body: BodyOf<A['dispute'][':id']['approve-dispute-amount']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id']['approve-dispute-amount'].$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    rejectAmount: (disputeId: string, body: BodyOf<A['dispute'][':id']['reject-dispute-amount']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id']['reject-dispute-amount'].$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    counterOffer: (disputeId: string, body: BodyOf<A['dispute'][':id']['counter-offer']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id']['counter-offer'].$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    acceptCounterOffer: (disputeId: string, body: BodyOf<A['dispute'][':id']['accept-counter-offer']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id']['accept-counter-offer'].$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    escalate: (disputeId: string, body: BodyOf<A['dispute'][':id']['escalate']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id'].escalate.$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    submitEvidence: (disputeId: string, body: BodyOf<A['dispute'][':id']['evidence']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id'].evidence.$post({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    extendEvidence: (disputeId: string, body: BodyOf<A['dispute'][':id']['evidence']['extension']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id'].evidence.extension.$post({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
    cancel: (disputeId: string, body: BodyOf<A['dispute'][':id']['cancel']['$patch']>, idempotencyKey: string) =>
      request((api, o) => api.dispute[':id'].cancel.$patch({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
  },
  testClock: {
    get: () => request((api, o) => api['test-clock'].$get(undefined, o)),
    advance: (body: BodyOf<A['test-clock']['advance']['$post']>, idempotencyKey: string) =>
      request((api, o) => api['test-clock'].advance.$post({ json: body }, o), { idempotencyKey }),
  },
  events: {
    list: (q: QueryOf<A['events']['$get']>) => request((api, o) => api.events.$get({ query: queryOf(q) as In<A['events']['$get']>['query'] }, o)),
    get: (eventId: string) => request((api, o) => api.events[':id'].$get({ param: { id: id(eventId) } }, o)),
  },
  webhooks: {
    list: () => request((api, o) => api.webhooks.$get(undefined, o)),
    create: (body: BodyOf<A['webhooks']['$post']>, idempotencyKey: string) => request((api, o) => api.webhooks.$post({ json: body }, o), { idempotencyKey }),
    deliveries: (webhookId: string, q: QueryOf<A['webhooks'][':id']['deliveries']['$get']> = {}) =>
      request((api, o) =>
        api.webhooks[':id'].deliveries.$get({ param: { id: id(webhookId) }, query: queryOf(q) as In<A['webhooks'][':id']['deliveries']['$get']>['query'] }, o),
      ),
    resend: (webhookId: string, deliveryId: string, idempotencyKey?: string) =>
      request((api, o) => api.webhooks[':id'].deliveries[':delivery_id'].resend.$post({ param: { id: id(webhookId), delivery_id: id(deliveryId) } }, o), {
        idempotencyKey,
      }),
    test: (webhookId: string, idempotencyKey?: string) => request((api, o) => api.webhooks[':id'].test.$post({ param: { id: id(webhookId) } }, o), { idempotencyKey }),
    rotateSecret: (webhookId: string, idempotencyKey?: string) =>
      request((api, o) => api.webhooks[':id']['rotate-secret'].$post({ param: { id: id(webhookId) } }, o), { idempotencyKey }),
    remove: (webhookId: string, idempotencyKey?: string) => request((api, o) => api.webhooks[':id'].$delete({ param: { id: id(webhookId) } }, o), { idempotencyKey }),
  },
  emails: {
    list: (q: QueryOf<A['emails']['$get']>) => request((api, o) => api.emails.$get({ query: queryOf(q) as In<A['emails']['$get']>['query'] }, o)),
    resend: (emailId: string, idempotencyKey?: string) => request((api, o) => api.emails[':id'].resend.$post({ param: { id: id(emailId) } }, o), { idempotencyKey }),
  },
  wallets: {
    fund: (body: BodyOf<A['wallets']['fund']['$post']>, idempotencyKey: string) => request((api, o) => api.wallets.fund.$post({ json: body }, o), { idempotencyKey }),
    get: (userId: string) => request((api, o) => api.wallets[':user_id'].$get({ param: { user_id: id(userId) } }, o)),
    history: (userId: string, q: QueryOf<A['wallets'][':user_id']['history']['$get']> = {}) =>
      request((api, o) =>
        api.wallets[':user_id'].history.$get({ param: { user_id: id(userId) }, query: queryOf(q) as In<A['wallets'][':user_id']['history']['$get']>['query'] }, o),
      ),
  },
  banks: {
    list: () => request((api, o) => api.wallets.banks.$get(undefined, o)),
    validate: (body: BodyOf<A['wallets']['banks']['validate']['$post']>) => request((api, o) => api.wallets.banks.validate.$post({ json: body }, o)),
    save: (body: BodyOf<A['wallets']['banks']['disbursement']['$post']>, idempotencyKey: string) =>
      request((api, o) => api.wallets.banks.disbursement.$post({ json: body }, o), { idempotencyKey }),
    listAccounts: (q: QueryOf<A['wallets']['banks']['list']['$get']>) =>
      request((api, o) => api.wallets.banks.list.$get({ query: queryOf(q) as In<A['wallets']['banks']['list']['$get']>['query'] }, o)),
    /** DELETE carries no Idempotency-Key: removing twice finds nothing the second time (404). */
    remove: (bankAccountId: string) => request((api, o) => api.wallets.banks.disbursement[':id'].$delete({ param: { id: id(bankAccountId) } }, o)),
  },
  payouts: {
    list: (q: QueryOf<A['payouts']['$get']>) => request((api, o) => api.payouts.$get({ query: queryOf(q) as In<A['payouts']['$get']>['query'] }, o)),
    get: (payoutId: string) => request((api, o) => api.payouts[':id'].$get({ param: { id: id(payoutId) } }, o)),
    create: (body: BodyOf<A['payouts']['$post']>, idempotencyKey: string) => request((api, o) => api.payouts.$post({ json: body }, o), { idempotencyKey }),
  },
  keys: {
    list: () => request((api, o) => api.keys.$get(undefined, o)),
    roll: (body: BodyOf<A['keys']['roll']['$post']>, idempotencyKey: string) => request((api, o) => api.keys.roll.$post({ json: body }, o), { idempotencyKey }),
  },
  reports: {
    overview: (q: QueryOf<A['reports']['overview']['$get']> = {}) =>
      request((api, o) => api.reports.overview.$get({ query: queryOf(q) as In<A['reports']['overview']['$get']>['query'] }, o)),
  },
  settings: {
    get: () => request((api, o) => api.settings.$get(undefined, o)),
    update: (body: BodyOf<A['settings']['$patch']>, idempotencyKey: string) => request((api, o) => api.settings.$patch({ json: body }, o), { idempotencyKey }),
  },
  /** The sandbox's payout helpers (test keys only; the API answers 403 for live keys). */
  testHelpers: {
    failPayout: (payoutId: string, body: BodyOf<A['test-helpers']['payouts'][':id']['fail']['$post']>, idempotencyKey: string) =>
      request((api, o) => api['test-helpers'].payouts[':id'].fail.$post({ param: { id: id(payoutId) }, json: body }, o), { idempotencyKey }),
    reversePayout: (payoutId: string, body: BodyOf<A['test-helpers']['payouts'][':id']['reverse']['$post']>, idempotencyKey: string) =>
      request((api, o) => api['test-helpers'].payouts[':id'].reverse.$post({ param: { id: id(payoutId) }, json: body }, o), { idempotencyKey }),
  },
  files: {
    /** A multipart upload: the form is the request's body (the operation reads it itself, within its limit). */
    upload: (file: File, idempotencyKey: string) => {
      const form = new FormData();
      form.set('file', file, file.name);
      return request((api, o) => api.files.$post(undefined, { ...o, init: { ...o.init, body: form } }), { idempotencyKey });
    },
    /** The raw response (bytes and headers), for the dashboard's session-checked proxy. */
    read: (fileId: string): Promise<Response> => send(credentials, (api, o) => api.files[':id'].$get({ param: { id: id(fileId) } }, o)),
  },
  };
}

export type EscrowClient = ReturnType<typeof clientApi>;

/** The operator's routes, with the operator key (never a client's key, never in the browser). */
function operatorRequest<R extends ClientResponse<unknown, number, string>>(call: Call<R>, opts?: SendOptions) {
  return requestWith(operatorCredentials, call, opts);
}

export const operatorEscrow = {
  /** The dispute team's queue, cases and verdicts. */
  disputes: {
    list: (q: QueryOf<A['operator']['disputes']['$get']>) =>
      operatorRequest((api, o) => api.operator.disputes.$get({ query: queryOf(q) as In<A['operator']['disputes']['$get']>['query'] }, o)),
    get: (disputeId: string) => operatorRequest((api, o) => api.operator.disputes[':id'].$get({ param: { id: id(disputeId) } }, o)),
    verdict: (disputeId: string, body: BodyOf<A['operator']['disputes'][':id']['verdict']['$post']>, idempotencyKey: string) =>
      operatorRequest((api, o) => api.operator.disputes[':id'].verdict.$post({ param: { id: id(disputeId) }, json: body }, o), { idempotencyKey }),
  },
  /** Any client's stored file: the raw response (bytes and headers), for the dispute desk's session-checked proxy. */
  files: {
    read: (fileId: string): Promise<Response> => send(operatorCredentials, (api, o) => api.operator.files[':id'].$get({ param: { id: id(fileId) } }, o)),
  },
  /** The overview of one client, or of every client without client_id. */
  reports: {
    overview: (q: QueryOf<A['operator']['reports']['overview']['$get']> = {}) =>
      operatorRequest((api, o) => api.operator.reports.overview.$get({ query: queryOf(q) as In<A['operator']['reports']['overview']['$get']>['query'] }, o)),
  },
  /** The integrating clients the service serves (docs/decisions.md §14). */
  clients: {
    list: (q: QueryOf<A['operator']['clients']['$get']> = {}) =>
      operatorRequest((api, o) => api.operator.clients.$get({ query: queryOf(q) as In<A['operator']['clients']['$get']>['query'] }, o)),
    create: (body: BodyOf<A['operator']['clients']['$post']>, idempotencyKey: string) =>
      operatorRequest((api, o) => api.operator.clients.$post({ json: body }, o), { idempotencyKey }),
    update: (clientId: string, body: BodyOf<A['operator']['clients'][':id']['$patch']>, idempotencyKey: string) =>
      operatorRequest((api, o) => api.operator.clients[':id'].$patch({ param: { id: id(clientId) }, json: body }, o), { idempotencyKey }),
  },
};

/** Whether this client's dashboard runs on a test key (sandbox): the payout test helpers and test money are offered only then. */
export async function dashboardTestMode(scope: { clientId: string }): Promise<boolean> {
  return (await clientCredentials(scope.clientId)).secretKey.startsWith('sk_test_');
}

const singleClientIds = new Map<string, string>();

/**
 * In single-client mode (ESCROW_API_KEY set) the id of the one client the dashboard serves, asked of the
 * API once per key; null when the dashboard serves many clients, each with its own stored key.
 */
export async function singleClientId(): Promise<string | null> {
  const key = dashboardEnv().ESCROW_API_KEY;
  if (!key) return null;
  const known = singleClientIds.get(key);
  if (known) return known;
  const keys = await escrowFor({ clientId: '' }).keys.list();
  if (!keys.ok) throw new Error(`The dashboard's ESCROW_API_KEY was not accepted by the escrow API: ${keys.message}`);
  singleClientIds.set(key, keys.data.client_id);
  return keys.data.client_id;
}
