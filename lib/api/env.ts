import 'server-only';
import type { Db } from '@/lib/server/db/client';
import type { ClientRow } from '@/lib/server/db/schema';
import type { Logger } from '@/lib/server/logger';

/** What the middleware hands each operation's handler (c.var). */
export type ApiVariables = {
  requestId: string;
  /** The server's logger with this request's id bound (request-context.ts). */
  log: Logger;
  /** The database, or inside an Idempotency-Key the transaction that records the key with the effect. */
  db: Db;
  /** The caller: a client's id, or OPERATOR_SCOPE; unset until authenticated. */
  scopeId?: string;
  /** Set on client operations only. */
  client: ClientRow;
  /** The one clock of a request: services take time as an argument; a sandbox's test clock runs ahead. */
  now: Date;
  /** The request body as read once, within its limit (body.ts). */
  bodyBytes?: Buffer;
  /** A JSON body as parsed by its first checks (body.ts), before its schema. */
  json?: unknown;
  /** Worked out on first use (base-url.ts). */
  baseUrl?: string;
  /** What an Idempotency-Key replay answers instead of a secret shown once (shown-once.ts). */
  replayBody?: string;
};

export type ApiEnv = { Variables: ApiVariables };

/** The operator's own scope for idempotency keys and rate limits: no client has the nil UUID. */
export const OPERATOR_SCOPE = '00000000-0000-0000-0000-000000000000';
