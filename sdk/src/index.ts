/**
 * @escrow-desk/sdk: a typed client for the Escrow Desk API (README.md beside this package shows the whole flow).
 * The types in ./schema are generated from the API's OpenAPI document; this file only adds the key, the
 * envelope's unwrapping, typed errors and idempotency keys on top of openapi-fetch.
 */
import createClient, { mergeHeaders, type Client, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

export type EscrowClientOptions = {
  /** Where the API is served, without /v1: `https://escrow.example.com`. */
  baseUrl: string;
  /** The client's secret key (sk_test_… or sk_live_…), or the operator key for /v1/operator operations. */
  apiKey: string;
  /** A fetch of your own (a test double, a proxy agent); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
};

/** One field the API refused, as the error envelope lists it. */
export type FieldError = { field: string; message: string };

/** Every answer outside 2xx, thrown with what the error envelope `{status: false, code, message, errors?}` said. */
export class EscrowApiError extends Error {
  override readonly name = 'EscrowApiError';

  constructor(
    /** The stable code to branch on: WRONG_PARTY, INVALID_STATE, NOT_FOUND, VALIDATION_ERROR, … */
    readonly code: string,
    message: string,
    /** The HTTP status: 400, 401, 403, 404, 409, 422, 429, 5xx. */
    readonly status: number,
    /** The fields at fault, when the request's input was refused. */
    readonly errors: FieldError[],
    /** The server's X-Request-Id: quote it to support. */
    readonly requestId: string | null,
    /** Seconds the server asked to wait before retrying (429, a key still in flight), when it said. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

type ErrorEnvelope = { status?: unknown; code?: unknown; message?: unknown; errors?: unknown };

async function errorOf(response: Response): Promise<EscrowApiError> {
  const envelope = (await response
    .clone()
    .json()
    .catch(() => ({}))) as ErrorEnvelope;
  const code = typeof envelope.code === 'string' ? envelope.code : `HTTP_${response.status}`;
  const message = typeof envelope.message === 'string' ? envelope.message : `The API answered ${response.status} ${response.statusText}`.trim();
  const errors = Array.isArray(envelope.errors) ? (envelope.errors as FieldError[]) : [];
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  return new EscrowApiError(code, message, response.status, errors, response.headers.get('x-request-id'), Number.isFinite(retryAfter) ? retryAfter : null);
}

function escrowMiddleware(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
    // Thrown rather than returned, so that a caller's happy path never has to check for an error first.
    async onResponse({ response }) {
      if (!response.ok) throw await errorOf(response);
      return undefined;
    },
  };
}

/** A body holding a file (`{ file: new File([bytes], 'proof.png') }`) goes as multipart form data; any other as JSON. */
function serializeBody(body: unknown): BodyInit {
  if (body instanceof FormData) return body;
  if (typeof body !== 'object' || body === null || !Object.values(body).some((value) => value instanceof Blob)) return JSON.stringify(body);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) form.append(name, value instanceof Blob ? value : String(value));
  return form;
}

/** What every call accepts beside the operation's own params and body. */
export type CallOptions = {
  /**
   * Sent as Idempotency-Key: a retry with the same key and request within 24 hours answers what the first one did
   * (with the Idempotent-Replayed header) instead of doing it twice. Use one key per intended action.
   */
  idempotencyKey?: string;
};

type Arguments<Init> = RequiredKeysOf<Init> extends never ? [(Init & CallOptions)?] : [Init & CallOptions];

/** The `data` of a success envelope `{status: true, message, data}`; bytes (a file, a backup) as they came. */
export type Unwrapped<Body> = Body extends { status: true; data: infer Data } ? Data : Body;

type Operation<Method extends HttpMethod, Path extends PathsWithMethod<paths, Method>> = Extract<paths[Path][Method], Record<string | number, unknown>>;

type Answer<Method extends HttpMethod, Path extends PathsWithMethod<paths, Method>, Init> = NonNullable<
  FetchResponse<Operation<Method, Path>, Init, MediaType>['data']
>;

type EscrowMethod<Method extends HttpMethod> = <Path extends PathsWithMethod<paths, Method>, Init extends MaybeOptionalInit<paths[Path], Method>>(
  path: Path,
  ...init: Arguments<Init>
) => Promise<Unwrapped<Answer<Method, Path, Init>>>;

type RawMethod<Method extends HttpMethod> = <Path extends PathsWithMethod<paths, Method>, Init extends MaybeOptionalInit<paths[Path], Method>>(
  path: Path,
  ...init: Arguments<Init>
) => Promise<{ data: Answer<Method, Path, Init>; response: Response }>;

export type EscrowClient = {
  get: EscrowMethod<'get'>;
  post: EscrowMethod<'post'>;
  patch: EscrowMethod<'patch'>;
  delete: EscrowMethod<'delete'>;
  /** The same calls answering the whole envelope and the Response (its headers: X-Request-Id, Idempotent-Replayed). */
  raw: { get: RawMethod<'get'>; post: RawMethod<'post'>; patch: RawMethod<'patch'>; delete: RawMethod<'delete'> };
  /** The underlying openapi-fetch client, key and errors already in place: for its middleware (`use`) and its options. */
  openapi: Client<paths>;
};

type LooseInit = { idempotencyKey?: string; headers?: Parameters<typeof mergeHeaders>[0]; [option: string]: unknown };
type LooseCall = (path: string, init?: object) => Promise<{ data?: unknown; response: Response }>;

function isEnvelope(body: unknown): body is { status: true; data: unknown } {
  return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === true && 'data' in body;
}

/**
 * A client for one API key. `escrow.post('/v1/users', { body })` answers the created user (the envelope's `data`);
 * any answer outside 2xx throws an EscrowApiError.
 */
export function createEscrowClient(options: EscrowClientOptions): EscrowClient {
  const openapi = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: options.fetch, bodySerializer: serializeBody });
  openapi.use(escrowMiddleware(options.apiKey));

  const rawCall =
    (call: LooseCall) =>
    async (path: string, init: LooseInit = {}) => {
      const { idempotencyKey, headers, ...rest } = init;
      const withKey = idempotencyKey === undefined ? headers : mergeHeaders(headers, { 'Idempotency-Key': idempotencyKey });
      const { data, response } = await call(path, { ...rest, headers: withKey });
      return { data, response };
    };
  const unwrapping = (call: LooseCall) => {
    const raw = rawCall(call);
    return async (path: string, init?: LooseInit) => {
      const { data } = await raw(path, init);
      return isEnvelope(data) ? data.data : data;
    };
  };

  // The typed signatures above are what callers see; underneath, every method is the same few lines.
  const calls = {
    get: openapi.GET as unknown as LooseCall,
    post: openapi.POST as unknown as LooseCall,
    patch: openapi.PATCH as unknown as LooseCall,
    delete: openapi.DELETE as unknown as LooseCall,
  };
  return {
    get: unwrapping(calls.get) as EscrowMethod<'get'>,
    post: unwrapping(calls.post) as EscrowMethod<'post'>,
    patch: unwrapping(calls.patch) as EscrowMethod<'patch'>,
    delete: unwrapping(calls.delete) as EscrowMethod<'delete'>,
    raw: {
      get: rawCall(calls.get) as RawMethod<'get'>,
      post: rawCall(calls.post) as RawMethod<'post'>,
      patch: rawCall(calls.patch) as RawMethod<'patch'>,
      delete: rawCall(calls.delete) as RawMethod<'delete'>,
    },
    openapi,
  };
}
