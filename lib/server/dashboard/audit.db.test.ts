/**
 * The audit log on a migrated database, PGlite and (with TEST_DATABASE_URL) PostgreSQL: rows as written,
 * the net that keeps secrets out of `detail`, and the page an admin reads: only its client's rows, newest
 * first, filtered by action, person and Lagos calendar days, in pages.
 */
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { auditLog } from '../db/schema';
import { auditFiltersOf, auditPage, recordAudit, safeDetail, AUDIT_PAGE_SIZE, type AuditActor } from './audit';

const MIGRATIONS = path.join(__dirname, '../db/migrations');
const adminUrl = process.env.TEST_DATABASE_URL;
const pglite = new PGlite();
let server: { sql: postgres.Sql; name: string; admin: postgres.Sql } | undefined;

beforeAll(async () => {
  await pglite.waitReady;
  await migratePglite(drizzlePglite(pglite), { migrationsFolder: MIGRATIONS });
  if (adminUrl) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
    const name = `audit_test_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const sql = postgres(url.toString(), { max: 2, onnotice: () => undefined });
    await migratePostgres(drizzlePostgres(sql), { migrationsFolder: MIGRATIONS });
    server = { sql, name, admin };
  }
}, 120_000);

afterAll(async () => {
  await pglite.close();
  if (server) {
    await server.sql.end();
    await server.admin.unsafe(`drop database if exists ${server.name} with (force)`);
    await server.admin.end();
  }
});

const databases: Array<[string, () => Db]> = [['PGlite', () => drizzlePglite(pglite, { schema }) as unknown as Db]];
if (adminUrl) databases.push(['PostgreSQL', () => drizzlePostgres(server!.sql, { schema }) as unknown as Db]);

const person = (role: AuditActor['role'], clientId: string | null, email = `${role}.${randomBytes(3).toString('hex')}@example.ng`): AuditActor => ({
  accountId: randomUUID(),
  email,
  role,
  clientId,
});

describe('safeDetail', () => {
  it('drops secret-looking names and values and cuts long texts', () => {
    const kept = safeDetail({
      secret_key: 'anything',
      new_api_key: 'x',
      token: 'y',
      password: 'z',
      invite_path: '/invite/abc',
      link: 'https://desk.example/invite/abc',
      note: 'rolled to sk_test_abcdef123',
      hook: 'whsec_abcdef',
      last4: 'a1b2',
      amount: 5000,
      on: true,
      none: null,
      reason: 'r'.repeat(500),
    });
    expect(Object.keys(kept).sort()).toEqual(['amount', 'last4', 'none', 'on', 'reason']);
    expect(String(kept.reason)).toHaveLength(200);
  });
});

describe('auditFiltersOf', () => {
  it('keeps good filters and ignores malformed ones instead of failing the page', () => {
    expect(auditFiltersOf({ page: '3', action: 'key_rolled', actor: '  Admin@ ', from: '2024-05-01', to: '2024-05-31' })).toEqual({
      page: 3,
      action: 'key_rolled',
      actor: 'Admin@',
      from: '2024-05-01',
      to: '2024-05-31',
    });
    expect(auditFiltersOf({ page: '-1', action: 'drop table', actor: '', from: '2024-02-31', to: 'yesterday' })).toEqual({ page: 1 });
    expect(auditFiltersOf({ page: ['2', '9'], action: ['sign_in'] })).toMatchObject({ page: 2, action: 'sign_in' });
  });
});

describe.each(databases)('the audit log on %s', (_name, open) => {
  it('writes who, what, on what, for which client and from where; a verdict names the disputed deal’s client', async () => {
    const db = open();
    const clientId = randomUUID();
    const admin = person('admin', clientId);
    const operator = person('operator', null);
    const at = new Date('2024-06-01T10:00:00.000Z');
    expect(await recordAudit(db, { actor: admin, action: 'key_rolled', target: 'key-1', detail: { last4: 'wxyz', secret_key: 'sk_test_leak' }, address: '203.0.113.9', now: at })).toBe(true);
    expect(await recordAudit(db, { actor: operator, action: 'verdict', target: 'dispute-1', clientId, detail: { seller_amount: 100 }, address: '198.51.100.7', now: at })).toBe(true);
    expect(await recordAudit(db, { actor: operator, action: 'sign_in', address: '198.51.100.7', now: at })).toBe(true);

    const { entries } = await auditPage(db, clientId, { page: 1 });
    expect(entries).toHaveLength(2);
    const rolled = entries.find((e) => e.action === 'key_rolled')!;
    expect(rolled).toMatchObject({ client_id: clientId, actor: { account_id: admin.accountId, email: admin.email, role: 'admin' }, target: 'key-1', address: '203.0.113.9', detail: { last4: 'wxyz' } });
    expect(rolled.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(JSON.stringify(entries)).not.toContain('sk_test_leak');
    expect(entries.find((e) => e.action === 'verdict')).toMatchObject({ client_id: clientId, actor: { role: 'operator' } });
    // The operator's own sign-in concerns no client: only the every-client view has it.
    const everyClient = await auditPage(db, null, { page: 1, action: 'sign_in', actor: operator.email });
    expect(everyClient.entries.map((e) => e.client_id)).toEqual([null]);
  });

  it('shows a client only its own rows, newest first, filtered by action, person and Lagos days, in pages', async () => {
    const db = open();
    const mine = randomUUID();
    const theirs = randomUUID();
    const admin = person('admin', mine, `Ada_Admin.${randomBytes(3).toString('hex')}@example.ng`);
    const viewer = person('viewer', mine);
    const stranger = person('admin', theirs);
    const base = Date.parse('2024-05-01T08:00:00.000Z');
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      await recordAudit(db, { actor: admin, action: i % 2 ? 'sign_in' : 'customer_created', target: `t${i}`, address: '127.0.0.1', now: new Date(base + i * 60_000) });
    }
    await recordAudit(db, { actor: viewer, action: 'sign_in', address: '::1', now: new Date(base) });
    await recordAudit(db, { actor: stranger, action: 'sign_in', address: '10.0.0.1', now: new Date(base) });
    // 23:30 UTC on 1 May is 00:30 on 2 May in Lagos.
    await recordAudit(db, { actor: admin, action: 'settings_changed', target: 'late', address: '127.0.0.1', now: new Date('2024-05-01T23:30:00.000Z') });

    const first = await auditPage(db, mine, { page: 1 });
    expect(first.pagination).toMatchObject({ page: 1, total: AUDIT_PAGE_SIZE + 7, pageCount: 2 });
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries[0]!.target).toBe('late');
    const times = first.entries.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await auditPage(db, mine, { page: 2 });
    expect(second.entries).toHaveLength(7);
    const all = [...first.entries, ...second.entries];
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.some((e) => e.actor.email === stranger.email)).toBe(false);

    const signIns = await auditPage(db, mine, { page: 1, action: 'sign_in' });
    expect(signIns.pagination.total).toBe(16);
    expect(signIns.entries.every((e) => e.action === 'sign_in')).toBe(true);
    // Part of the email, any case; `_` is a letter here, not LIKE's any-character.
    expect((await auditPage(db, mine, { page: 1, actor: 'ada_admin' })).pagination.total).toBe(AUDIT_PAGE_SIZE + 6);
    expect((await auditPage(db, mine, { page: 1, actor: 'adaXadmin' })).pagination.total).toBe(0);
    expect((await auditPage(db, mine, { page: 1, actor: viewer.email.toUpperCase() })).entries.map((e) => e.actor.role)).toEqual(['viewer']);

    const secondOfMay = await auditPage(db, mine, { page: 1, from: '2024-05-02', to: '2024-05-02' });
    expect(secondOfMay.entries.map((e) => e.target)).toEqual(['late']);
    expect((await auditPage(db, mine, { page: 1, to: '2024-05-01' })).pagination.total).toBe(AUDIT_PAGE_SIZE + 6);
    expect((await auditPage(db, theirs, { page: 1 })).entries.map((e) => e.actor.email)).toEqual([stranger.email]);
    // Every client's view holds both clients' rows.
    const everyClient = await auditPage(db, null, { page: 1, from: '2024-05-01', to: '2024-05-02', actor: '@example.ng' });
    expect(everyClient.pagination.total).toBeGreaterThanOrEqual(AUDIT_PAGE_SIZE + 8);
  });

  it('a row that cannot be written is reported, not thrown: the change it records has already happened', async () => {
    const db = open();
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => void errors.push(line);
    try {
      const written = await recordAudit(db, { actor: { ...person('admin', randomUUID()), accountId: 'not-a-uuid' }, action: 'sign_in', address: '127.0.0.1' });
      expect(written).toBe(false);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('audit record not written');
    expect(await db.$count(auditLog)).toBeGreaterThan(0);
  });
});
