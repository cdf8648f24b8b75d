import 'server-only';
import { and, count, desc, eq, gte, ilike, lt, type SQL } from 'drizzle-orm';
import { headers } from 'next/headers';
import { z } from 'zod';
import { AUDIT_ACTIONS, type AuditAction, type AuditDetail, type AuditEntry } from '@/lib/contracts/audit';
import { pagination, type Pagination } from '@/lib/contracts/common';
import { getDb, type DbOrTx } from '../db/client';
import { auditLog, type AuditLogRow } from '../db/schema';
import { clientAddressOf } from '../http/client-address';
import { uuidv7 } from '../ids';
import type { AccountRole } from './accounts';
import type { Actor } from './actor-kind';
import { log } from '../logger';

/** The person as the log keeps them; `clientId` is the client their actions concern unless one is named. */
export type AuditActor = { accountId: string; email: string; role: AccountRole; clientId: string | null };

export function auditActorOf(actor: Actor): AuditActor {
  const role: AccountRole = actor.kind === 'admin' ? (actor.readOnly ? 'viewer' : 'admin') : actor.kind;
  return { accountId: actor.accountId, email: actor.email, role, clientId: 'clientId' in actor ? actor.clientId : null };
}

export type AuditRecord = {
  actor: AuditActor;
  action: AuditAction;
  target?: string | null;
  detail?: AuditDetail;
  /** The client the action concerns, when it is not the actor's own (a verdict: the disputed deal's client). */
  clientId?: string | null;
  address: string;
  now?: Date;
};

// Admins read the log, so it must never hold what would let its reader act as someone: a key, a token, a
// password or a one-time link. Callers pass only names, amounts and ids; this is the net under them.
const SECRET_NAMES = /secret|token|password|api_?key|^key$|invite_(?:path|link|url)/i;
const SECRET_VALUES = /\b(?:sk|pk)_(?:test|live)_|\bwhsec_|\bop_[A-Za-z0-9_-]{8,}|\/invite\//;
const MAX_TEXT = 200;

/** The detail as stored: secret-looking keys and values dropped, texts cut short. */
export function safeDetail(detail: AuditDetail = {}): AuditDetail {
  const kept: AuditDetail = {};
  for (const [name, value] of Object.entries(detail)) {
    if (SECRET_NAMES.test(name)) continue;
    if (typeof value === 'string') {
      if (SECRET_VALUES.test(value)) continue;
      kept[name] = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
    } else if (value === null || typeof value === 'number' || typeof value === 'boolean') {
      kept[name] = value;
    }
  }
  return kept;
}

/**
 * Writes one row. Called once the change has succeeded, which cannot be undone by the log failing to
 * be written: the failure is logged as an error for the operator, and the person is told what happened.
 */
export async function recordAudit(db: DbOrTx, record: AuditRecord): Promise<boolean> {
  const now = record.now ?? new Date();
  try {
    await db.insert(auditLog).values({
      id: uuidv7(now.getTime()),
      clientId: record.clientId === undefined ? record.actor.clientId : record.clientId,
      actorAccountId: record.actor.accountId,
      actorEmail: record.actor.email,
      actorRole: record.actor.role,
      action: record.action,
      target: record.target ?? null,
      detail: safeDetail(record.detail),
      address: record.address,
      createdAt: now,
    });
    return true;
  } catch (error) {
    log.error({ msg: 'audit record not written', action: record.action, actor_account_id: record.actor.accountId, error });
    return false;
  }
}

/** The address of the request a server action or page is answering, as the production server decided it. */
export async function requestAddress(): Promise<string> {
  return clientAddressOf(await headers());
}

/** For server actions: the signed-in person's action, from the address of the request being answered. */
export async function auditStaffAction(actor: Actor, action: AuditAction, facts: Pick<AuditRecord, 'target' | 'detail' | 'clientId'> = {}): Promise<void> {
  try {
    await recordAudit(await getDb(), { actor: auditActorOf(actor), action, ...facts, address: await requestAddress() });
  } catch (error) {
    log.error({ msg: 'audit record not written', action, actor_account_id: actor.accountId, error });
  }
}

export const AUDIT_PAGE_SIZE = 25;

// Dates in the filter are calendar days in Lagos (WAT, UTC+1 all year), as every date on the dashboard.
const LAGOS_OFFSET_MS = 3_600_000;
const DAY_MS = 86_400_000;
const lagosMidnight = (day: string) => Date.parse(`${day}T00:00:00.000Z`) - LAGOS_OFFSET_MS;
/** A real calendar day: Date.parse takes 2024-02-31 as 2 March. */
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((day) => {
    const ms = Date.parse(`${day}T00:00:00.000Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day);
  });

/** The audit page's query: anything malformed is ignored rather than refused, as a link's query may be hand-edited. */
const AuditFiltersQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  action: z.enum(AUDIT_ACTIONS).optional().catch(undefined),
  actor: z.string().trim().max(320).optional().catch(undefined).transform((v) => v || undefined),
  from: Day.optional().catch(undefined),
  to: Day.optional().catch(undefined),
});
/** Days are Lagos calendar days (YYYY-MM-DD), both ends included; `actor` matches part of the email, in any case. */
export type AuditFilters = { page: number; action?: AuditAction; actor?: string; from?: string; to?: string };

export function auditFiltersOf(query: Record<string, string | string[] | undefined>): AuditFilters {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return AuditFiltersQuery.parse({ page: first(query.page), action: first(query.action) || undefined, actor: first(query.actor), from: first(query.from) || undefined, to: first(query.to) || undefined });
}

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function entryOf(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    client_id: row.clientId,
    actor: { account_id: row.actorAccountId, email: row.actorEmail, role: row.actorRole },
    action: row.action,
    target: row.target,
    detail: row.detail,
    address: row.address,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * One page of the log, newest first. `clientId` null: every client's rows and the service's own (the
 * operator's view); a client's admins are always given their own client's id.
 */
export async function auditPage(db: DbOrTx, clientId: string | null, filters: AuditFilters): Promise<{ entries: AuditEntry[]; pagination: Pagination }> {
  const conditions: SQL[] = [];
  if (clientId !== null) conditions.push(eq(auditLog.clientId, clientId));
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.actor) conditions.push(ilike(auditLog.actorEmail, `%${likeLiteral(filters.actor)}%`));
  if (filters.from) conditions.push(gte(auditLog.createdAt, new Date(lagosMidnight(filters.from))));
  if (filters.to) conditions.push(lt(auditLog.createdAt, new Date(lagosMidnight(filters.to) + DAY_MS)));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const offset = (filters.page - 1) * AUDIT_PAGE_SIZE;
  const [rows, [counted]] = await Promise.all([
    db.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(AUDIT_PAGE_SIZE).offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { entries: rows.map(entryOf), pagination: pagination(filters.page, AUDIT_PAGE_SIZE, counted?.n ?? 0) };
}
