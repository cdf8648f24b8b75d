import 'server-only';
import { hc, type ClientRequestOptions, type ClientResponse } from 'hono/client';
import type { ExtractSchema } from 'hono/types';
import type { EscrowApi } from '@/lib/api/app';
import { dashboardEnv } from '../dashboard/config';
import { clientCredentials, CredentialsMissing, operatorCredentials, type ApiCredentials } from './credentials';
import { log } from '../logger';
import { outgoingTraceparent } from './trace';

export type FieldError = { field: string; message: string };
export type ApiSuccess<T> = { ok: true; status: number; message: string; data: T };
export type ApiFailure = { ok: false; status: number; code: string; message: string; errors?: FieldError[] };
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

/**
 * The /v1 operations as the app defines them (lib/api): each is named by its method and path
 * ('POST /milestones/:id/fund'), and its path, query, body and answer types all come from that definition.
 */
type Api = ReturnType<typeof hc<EscrowApi>>;
type Schema = ExtractSchema<EscrowApi>;
type Method = 'get' | 'post' | 'patch' | 'delete';
export type Operation = {
  [P in keyof Schema & string]: { [M in keyof Schema[P] & string]: M extends `$${infer X extends Method}` ? `${Uppercase<X>} ${P}` : never }[keyof Schema[P] & string];
}[keyof Schema & string];
/** The operator's operations take the operator key; every other one a client's secret key. */
export type OperatorOperation = Extract<Operation, `${string} /operator/${string}`>;
export type ClientOperation = Exclude<Operation, OperatorOperation>;

type EndpointOf<O extends Operation> = O extends `${infer M extends Uppercase<Method>} ${infer P extends keyof Schema & string}`
  ? Schema[P][`$${Lowercase<M>}` & keyof Schema[P]]
  : never;
type In<O extends Operation> = EndpointOf<O> extends { input: infer I } ? I : never;
/**
 * What an operation takes as the dashboard holds it: path ids, a query by name (numbers where the wire has
 * digits, a form's filter as typed for the API to judge, blanks meaning "not set"), the JSON body, and the
 * Idempotency-Key for a change.
 */
export type Args<O extends Operation> = (In<O> extends { param: infer P } ? { param: { [K in keyof P]: string } } : unknown) &
  (In<O> extends { query: infer Q } ? { query?: { [K in keyof Q]?: string | number } } : unknown) &
  (In<O> extends { json: infer B } ? { json: B } : unknown) & { idempotencyKey?: string };
/** The arguments, optional where the operation needs none. */
type ArgsOf<O extends Operation> = object extends Args<O> ? [args?: Args<O>] : [args: Args<O>];
/** The data of an operation's success. */
export type Data<O extends Operation> = Extract<EndpointOf<O>, { status: 200 }> extends { output: infer T } ? (T extends { data: infer D } ? D : never) : never;
type DataOf<R> = R extends ClientResponse<infer T, 200, 'json'> ? (T extends { data: infer D } ? D : never) : never;

const TIMEOUT_MS = 30_000;

/** Query values as the wire carries them; unset and blank ones left out. */
function queryOf(query: Record<string, string | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') out[key] = String(value);
  return out;
}

type SendOptions = { idempotencyKey?: string; accept?: string };
type Credentials = () => Promise<ApiCredentials>;
type Call<R> = (api: Api, options: ClientRequestOptions) => Promise<R>;

async function send<R extends ClientResponse<unknown, number, string>>(credentials: Credentials, call: Call<R>, opts: SendOptions = {}): Promise<R> {
  const { apiUrl, secretKey } = await credentials();
  const headers: Record<string, string> = { authorization: secretKey, accept: opts.accept ?? 'application/json', traceparent: await outgoingTraceparent() };
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

/** hc's client is a proxy of the paths: the operation's path walked segment by segment, then its method. */
type Node = { [segment: string]: Node } & ((args: object, options: ClientRequestOptions) => Promise<ClientResponse<unknown, number, string>>);

function endpoint(api: Api, operation: Operation): Node {
  const [method, path] = operation.split(' ') as [string, string];
  let node = api as unknown as Node;
  for (const segment of path.split('/').filter(Boolean)) node = node[segment]!;
  return node[`$${method.toLowerCase()}`]!;
}

/** Path ids go into the URL escaped: they may come from the dashboard's own URL. */
function wireArgs(args: { param?: Record<string, string>; query?: Record<string, string | number | undefined>; json?: unknown }): object {
  return {
    ...(args.param ? { param: Object.fromEntries(Object.entries(args.param).map(([name, value]) => [name, encodeURIComponent(value)])) } : {}),
    ...(args.query ? { query: queryOf(args.query) } : {}),
    ...(args.json !== undefined ? { json: args.json } : {}),
  };
}

/** One /v1 operation with these credentials, answered as an ApiResult (the envelope's data, or the API's refusal). */
function callOperation<O extends Operation>(credentials: Credentials, operation: O, args: Args<O> | undefined): Promise<ApiResult<Data<O>>> {
  const { idempotencyKey, ...parts } = (args ?? {}) as Parameters<typeof wireArgs>[0] & { idempotencyKey?: string };
  return requestWith(credentials, (api, o) => endpoint(api, operation)(wireArgs(parts), o), { idempotencyKey }) as Promise<ApiResult<Data<O>>>;
}

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
  return {
    /** One operation by method and path: call('GET /transactions/:id', { param: { id } }). */
    call: <O extends ClientOperation>(operation: O, ...[args]: ArgsOf<O>) => callOperation(credentials, operation, args),
    /** A multipart upload: the form is the request's body (the operation reads it itself, within its limit). */
    uploadFile: (file: File, idempotencyKey: string): Promise<ApiResult<Data<'POST /files'>>> => {
      const form = new FormData();
      form.set('file', file, file.name);
      return requestWith(credentials, (api, o) => api.files.$post(undefined, { ...o, init: { ...o.init, body: form } }), { idempotencyKey });
    },
    /** The raw response (bytes and headers), for the dashboard's session-checked proxy. */
    readFile: (fileId: string): Promise<Response> => send(credentials, (api, o) => api.files[':id'].$get({ param: { id: encodeURIComponent(fileId) } }, o)),
    /** A wallet's statement as the API's CSV (the raw response), for the dashboard's session-checked download. */
    readStatementCsv: (userId: string, period: { from?: string; to?: string }): Promise<Response> =>
      send(credentials, (api, o) => api.wallets[':user_id'].statement.$get({ param: { user_id: encodeURIComponent(userId) }, query: period }, o), { accept: 'text/csv' }),
  };
}

export type EscrowClient = ReturnType<typeof clientApi>;

/** The operator's routes, with the operator key (never a client's key, never in the browser). */
export const operatorEscrow = {
  call: <O extends OperatorOperation>(operation: O, ...[args]: ArgsOf<O>) => callOperation(operatorCredentials, operation, args),
  /** Any client's stored file: the raw response (bytes and headers), for the dispute desk's session-checked proxy. */
  readFile: (fileId: string): Promise<Response> =>
    send(operatorCredentials, (api, o) => api.operator.files[':id'].$get({ param: { id: encodeURIComponent(fileId) } }, o)),
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
  const keys = await escrowFor({ clientId: '' }).call('GET /keys');
  if (!keys.ok) throw new Error(`The dashboard's ESCROW_API_KEY was not accepted by the escrow API: ${keys.message}`);
  singleClientIds.set(key, keys.data.client_id);
  return keys.data.client_id;
}
