/**
 * Fills a fresh, migrated database with a benchmark's worth of escrow history in set-based SQL:
 * one big client and many small ones, each with its buyers and sellers, transactions of two
 * milestones in every state (bench/dataset-states.ts), the ledger that moved their money, events with
 * per-transaction sequences, webhook deliveries, the buyers' inspection emails and log lines, written as
 * the services write them.
 *
 *   npx tsx --conditions=react-server bench/generate-data.ts --database-url=postgres://… --size=10000
 *
 * (server-only modules resolve to nothing under that condition: the ledger audit is the app's own.)
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { formatLagosDateTime } from '../lib/escrow/business-days';
import { DEFAULT_FEE_POLICY } from '../lib/escrow/fees';
import { formatNaira } from '../lib/escrow/money';
import { INSPECTION_DAYS_DEFAULT, MILESTONE_DEADLINES, RETURN_WINDOW_DAYS } from '../lib/escrow/deadlines';
import { hashSecretKey } from '../lib/server/crypto/key-hash';
import type { Db } from '../lib/server/db/client';
import { rowFromJson } from '../lib/server/db/rows';
import { deliveryAwaitsInspectionEmail } from '../lib/server/email/templates';
import { organisations, parties, users } from '../lib/server/db/schema';
import { partyRecord } from '../lib/server/records/people';
import { ledgerIntegrity } from '../lib/server/services/ledger-integrity';
import { DATASET_STATES, playState, type StepOutcome, type TransactionOutcome } from './dataset-states';

/**
 * Where the generator's statements run. The scratch tables it plans in are ordinary (unlogged) tables in
 * a schema of their own, dropped at the end, so `together` may spread statements over several connections.
 */
export type SqlSession = {
  run: (statement: string) => Promise<Record<string, unknown>[]>;
  /** Runs these statements at once where the session has several connections; one by one otherwise. */
  together: (statements: string[]) => Promise<void>;
  /** How many statements `together` runs at once: the generator splits its big inserts into this many parts. */
  parallel: number;
};

export function pgliteSession(pg: PGlite): SqlSession {
  const run = async (statement: string) => (await pg.query<Record<string, unknown>>(statement)).rows;
  return {
    run,
    together: async (statements) => {
      for (const statement of statements) await run(statement);
    },
    parallel: 1,
  };
}

/** As many parts at once as the pool has connections, at most one per core (each part keeps a core busy). */
export function postgresSession(pool: postgres.Sql): SqlSession {
  const run = async (statement: string) => [...(await pool.unsafe(statement))];
  const parallel = Math.max(1, Math.min(pool.options.max, os.availableParallelism()));
  return { run, together: async (statements) => void (await Promise.all(statements.map(run))), parallel };
}

/**
 * Connections for the generator to a PostgreSQL database: one per core. Each may sort and hash in memory
 * more than the server's default of a few megabytes: the parties' records hashed for a million
 * transactions' steps are near that, and a hash over it writes every step to disk. None waits for its
 * commits to reach the disk (the load ends with a checkpoint); a `set` would reach one of them only.
 */
export function generatorPool(url: string): postgres.Sql {
  return postgres(url, {
    max: os.availableParallelism(),
    onnotice: () => undefined,
    connection: { work_mem: '256MB', maintenance_work_mem: '512MB', synchronous_commit: 'off' },
  });
}

export type DatasetOptions = {
  clients: number;
  bigClientTransactions: number;
  otherClientTransactions: number;
  /** How far back the oldest transaction was made. */
  historyDays?: number;
  /** Whether each client has a webhook endpoint that received its events. */
  webhooks?: boolean;
  /** Only these stories (dataset-states.ts names), in turn, instead of the usual mix. */
  states?: string[];
  /** The server's address, for proof and contract URLs. */
  baseUrl?: string;
  now?: Date;
};

export type GeneratedClient = { id: string; secretKey: string; transactions: number };
export type StatementTiming = { statement: string; seconds: number };
export type GeneratedDataset = { clients: GeneratedClient[]; seconds: number; timings: StatementTiming[] };

/** The sizes the CLI knows: the big client's transactions; every other client has a thousandth of them. */
export function datasetOptionsForSize(size: number): DatasetOptions {
  return { clients: 100, bigClientTransactions: size, otherClientTransactions: Math.max(1, Math.round(size / 1000)) };
}

const DAY_MS = 86_400_000;
/** A client's deals are spread over this many buyer–seller pairs (at least two). */
const TRANSACTIONS_PER_PAIR = 500;
/** What a buyer keeps in the wallet beyond what its fundings took: ₦1,000,000. */
const SPARE_WALLET_KOBO = 100_000_000;
const REJECTION_REASON = 'The goods did not match the description';
const CANCEL_REASON = 'Plans changed';
/** A 1×1 PNG: the proof every delivery and return names. */
const PROOF_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const ts = (date: Date) => `${quote(date.toISOString())}::timestamptz`;
/** The instant at a fraction of a transaction's active span, to the millisecond, as the columns keep it. */
const fraction = (at: number | string) => `date_trunc('milliseconds', g.created_at + g.span * (${at})::float8)`;
const iso = (instant: string) => `to_char((${instant}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Naira for people, as formatNaira writes it (₦1,234.50). */
const naira = (kobo: string) => `('₦' || to_char((${kobo}) / 100.0, 'FM999,999,999,999,990.00'))`;
/** A deadline as formatLagosDateTime writes it (24 Nov 2026, 10:18 WAT): Lagos is UTC+1 all year. */
const lagos = (instant: string) => `(to_char((${instant}) at time zone 'UTC' + interval '1 hour', 'FMDD Mon YYYY, HH24:MI') || ' WAT')`;

/** The buyer's share of a fee (fees.ts splitFee): SPLIT_50_50 gives the odd kobo to the seller. */
const buyerFeeShare = (fee: string) => `(case g.payer when 'BUYER_100' then ${fee} when 'SPLIT_50_50' then floor(${fee} / 2)::bigint else 0 end)`;

/** Per-milestone columns of a gen.gen_tx row, by position (kobo and ids). */
function money(position: string) {
  const p = (name: string) => `(case ${position} when 1 then g.${name}1 else g.${name}2 end)`;
  return {
    amount: p('amount'),
    fee: p('fee'),
    /** What the buyer's wallet pays into escrow (fees.ts fundingAmount): also what a refund gives back. */
    funding: p('funding'),
    /** What a full release pays the seller, the seller's fee share kept back. */
    toSeller: p('to_seller'),
    milestoneId: `(case ${position} when 1 then g.m1_id else g.m2_id end)`,
    escrowId: `(case ${position} when 1 then g.escrow1_id else g.escrow2_id end)`,
  };
}

/** The sum of a per-milestone column over the positions in an int[] expression. */
const sumAt = (positions: string, column: 'funding' | 'to_seller') =>
  `(case when 1 = any(${positions}) then g.${column}1 else 0 end + case when 2 = any(${positions}) then g.${column}2 else 0 end)`;

type StepRow = { state: number; outcome: StepOutcome };

/** The stories as a VALUES list the SQL joins on: one row per step of each state. */
function stepsValues(): string {
  const rows: StepRow[] = DATASET_STATES.flatMap((state, index) => playState(state).steps.map((outcome) => ({ state: index, outcome })));
  return rows
    .map(
      ({ state, outcome: o }) =>
        `(${state}, ${o.sequence}, ${quote(o.kind)}, ${o.position}, ${o.at}, ${o.milestoneStatus ? quote(o.milestoneStatus) : 'null'}, ${quote(o.transactionStatus)}, array[${o.canceled.join(',')}]::int[], array[${o.refunded.join(',')}]::int[])`,
    )
    .join(',\n');
}

/** A CASE over the state number, from a value per state. */
function byState(value: (index: number) => string): string {
  return `(case g.state ${DATASET_STATES.map((_, i) => `when ${i} then ${value(i)}`).join(' ')} end)`;
}

/** Milestone 1's due date: 30 days after creation, or where the story puts it. */
function firstDueSql(): string {
  return byState((i) => (DATASET_STATES[i]!.firstDueAt !== undefined ? fraction(DATASET_STATES[i]!.firstDueAt!) : `(g.created_at + interval '30 days')`));
}

/**
 * Which state the k-th transaction of a client tells: a fixed mix, interleaved so every page of a list holds
 * several; or, when `only` names some stories, those in turn (a storm's dataset: every deal under inspection).
 */
function stateOfIndexSql(k: string, only?: string[]): string {
  if (only) {
    const picked = only.map((name) => {
      const index = DATASET_STATES.findIndex((state) => state.name === name);
      if (index < 0) throw new Error(`no dataset state named ${name}`);
      return index;
    });
    return `(case ${k} % ${picked.length} ${picked.map((index, turn) => `when ${turn} then ${index}`).join(' ')} end)`;
  }
  let from = 0;
  const cases = DATASET_STATES.map((state, i) => {
    const until = from + state.share;
    const branch = `when (${k} * 37) % 100 < ${until} then ${i}`;
    from = until;
    return branch;
  });
  return `(case ${cases.join(' ')} end)`;
}

const sqlArray = (values: number[]) => `array[${values.join(',')}]::int[]`;
const sqlFraction = (at: number | null) => (at === null ? 'null::float8' : `${at}::float8`);

/** Every milestone as each step of each story leaves it, as VALUES rows. */
function snapshotValues(outcomes: TransactionOutcome[]): string {
  return outcomes
    .flatMap((o, state) =>
      o.steps.flatMap((step) =>
        step.milestonesAfter.map(
          (m, i) =>
            `(${state}, ${step.sequence}, ${i + 1}, ${quote(m.status)}, ${m.funded}, ${m.delivered}, ${m.completed}, ${m.deliveryRejected}, ${m.returnProofSent}, ${m.returnApproved}, ${sqlFraction(m.deliveredAt)}, ${sqlFraction(m.rejectedAt)}, ${sqlFraction(m.updatedAt)}, ${m.held}, ${sqlFraction(m.escrowMovedAt)}, ${quote(JSON.stringify(m.allowed))}::jsonb)`,
        ),
      ),
    )
    .join(',\n');
}

/** The transaction as each step of each story leaves it, as VALUES rows. */
function transactionSnapshotValues(outcomes: TransactionOutcome[]): string {
  return outcomes
    .flatMap((o, state) =>
      o.steps.map(({ sequence, transactionAfter: t }) => {
        const current = t.currentPosition === null ? 'null::int' : String(t.currentPosition);
        return `(${state}, ${sequence}, ${quote(t.status)}, ${current}, ${t.isCompleted}, ${t.onLastMilestone}, ${sqlFraction(t.completedAt)}, ${sqlFraction(t.canceledAt)}, ${sqlFraction(t.updatedAt)}, ${sqlArray(t.funded)}, ${sqlArray(t.released)}, ${sqlArray(t.refunded)}, ${quote(JSON.stringify(t.allowed))}::jsonb)`;
      }),
    )
    .join(',\n');
}

const isoOrNull = (instant: string) => `case when (${instant}) is null then null else ${iso(instant)} end`;
const koboAsNaira = (kobo: string) => `((${kobo}) / 100.0)`;

/** transactionRecord (records/transaction-graph/present.ts) in SQL, from gen.gen_tx `g` and the transaction after the step, `ta`. */
function transactionRecordJson(ta: string): string {
  const at = (column: string) => `case when ${ta}.${column} is null then null else ${iso(fraction(`${ta}.${column}`))} end`;
  return `jsonb_build_object('id', g.tx_id, 'title', 'Order ' || (g.k + 1), 'description', 'Goods bought through the marketplace', 'currency', 'NGN',
    'location_type', 'LOCAL', 'category', 'GOODS', 'sub_category', 'Food/beverage/agriculture', 'transaction_contract_url', g.contract_url,
    'status', ${ta}.status, 'transaction_originator', 'BUYER', 'buyer_id', g.buyer_party_id, 'seller_id', g.seller_party_id, 'source', 'api',
    'clientId', g.client_id, 'transaction_amount', ${koboAsNaira('g.amount1 + g.amount2')},
    'total_amount_funded', ${koboAsNaira(sumAt(`${ta}.funded`, 'funding'))},
    'total_amount_refunded', ${koboAsNaira(sumAt(`${ta}.refunded`, 'funding'))},
    'total_amount_disbursed', ${koboAsNaira(sumAt(`${ta}.released`, 'to_seller'))},
    'current_milestone_id', coalesce(case ${ta}.current_position when 1 then g.m1_id::text when 2 then g.m2_id::text end, ''),
    'job_id', null, 'decline_reason', null, 'is_completed', ${ta}.is_completed, 'has_buyer_rated', false, 'has_seller_rated', false,
    'on_last_milestone', ${ta}.on_last_milestone, 'discount_code', null, 'declined_at', null, 'approved_at', ${at('completed_at')},
    'date_canceled', ${at('canceled_at')}, 'cancellation_request', null,
    'ended_by', case when ${ta}.canceled_at is null then null else 'buyer' end,
    'end_reason', case when ${ta}.canceled_at is null then null else ${quote(CANCEL_REASON)} end,
    'commission_payer', g.payer, 'fee_basis_points', ${DEFAULT_FEE_POLICY.basisPoints}, 'external_reference', null, 'metadata', '{}'::jsonb,
    'created_by', g.client_id, 'updated_by', null,
    'created_at', ${iso('g.created_at')}, 'updated_at', ${iso(fraction(`${ta}.updated_at`))})`;
}

/** The fields milestoneFields (records/transaction-graph/present.ts) gives a milestone, in SQL, from its state after the step, `ma`. */
function milestoneRecordJson(ma: string, position: 1 | 2): string {
  const m = money(String(position));
  const due = `g.due${position}`;
  const inspectionEnd = `${fraction(`${ma}.delivered_at`)} + interval '${INSPECTION_DAYS_DEFAULT} days'`;
  const returnDeadline = `${fraction(`${ma}.rejected_at`)} + interval '${RETURN_WINDOW_DAYS} days'`;
  const dueOf: Partial<Record<string, string>> = { inspectionEndDate: inspectionEnd, returnDeadlineDate: returnDeadline };
  const deadlines = MILESTONE_DEADLINES.flatMap((rule) => {
    const dueAt = dueOf[rule.field];
    if (!rule.status || !dueAt) return [];
    return [`when ${quote(rule.status)} then jsonb_build_array(jsonb_build_object('name', ${quote(rule.name)}, 'due_at', ${iso(dueAt)}, 'counted_in', ${quote(rule.counted_in)}, 'on_lapse', ${quote(rule.on_lapse)}))`];
  });
  return `jsonb_build_object('id', ${m.milestoneId}, 'title', ${quote(position === 1 ? 'Deposit' : 'Balance')}, 'description', 'Goods as described',
    'amount', ${koboAsNaira(m.amount)}, 'is_milestone_funded', ${ma}.funded, 'position_in_transaction', ${position}, 'is_delivered', ${ma}.delivered,
    'is_completed', ${ma}.completed, 'delivery_rejection_reason', case when ${ma}.rejected_at is null then null else ${quote(REJECTION_REASON)} end,
    'is_delivery_rejected', ${ma}.rejected, 'is_return_proof_sent', ${ma}.return_proof_sent, 'is_return_approved', ${ma}.return_approved,
    'is_return_rejected', false, 'due_date_type', 'DEADLINE_DATE', 'due_date', ${iso(due)}, 'execution_timeline', null, 'status', ${ma}.status,
    'commission_payer', g.payer, 'discount_code', null, 'milestone_fee', ${koboAsNaira(m.fee)}, 'transaction_id', g.tx_id,
    'inspection_duration', ${INSPECTION_DAYS_DEFAULT}, 'inspection_end_date', ${isoOrNull(`case when ${ma}.delivered_at is null then null else ${inspectionEnd} end`)},
    'return_deadline_date', ${isoOrNull(`case when ${ma}.rejected_at is null then null else ${returnDeadline} end`)},
    'current_extension_index', null, 'amount_refunded', 0, 'amount_released', case when ${ma}.completed then ${koboAsNaira(m.amount)} else null end,
    'partial_acceptance', null, 'milestone_escrow_id', ${m.escrowId}, 'rate_used', ${DEFAULT_FEE_POLICY.basisPoints / 100},
    'proofs_of_completion', case when ${ma}.delivered then jsonb_build_array(g.proof_url) else '[]'::jsonb end,
    'proofs_of_return', case when ${ma}.rejected_at is null then '[]'::jsonb else jsonb_build_array(g.proof_url) end,
    'extensions', '[]'::jsonb, 'metadata', '{}'::jsonb, 'allowed_actions', ${ma}.allowed,
    'deadlines', case ${ma}.status ${deadlines.join(' ')} else '[]'::jsonb end,
    'milestone_escrow', jsonb_build_object('id', ${m.escrowId}, 'balance', case when ${ma}.held then ${koboAsNaira(m.funding)} else 0 end,
      'created_at', ${iso('g.created_at')}, 'updated_at', ${iso(`coalesce(${fraction(`${ma}.escrow_moved_at`)}, g.created_at)`)}),
    'created_at', ${iso('g.created_at')}, 'updated_at', ${iso(fraction(`${ma}.updated_at`))})`;
}

export async function generateDataset(session: SqlSession, options: DatasetOptions): Promise<GeneratedDataset> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const historyDays = options.historyDays ?? 365;
  const baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  const webhooks = options.webhooks ?? true;
  const clientsCreatedAt = new Date(now.getTime() - (historyDays + 1) * DAY_MS);
  const timings: StatementTiming[] = [];
  const run = async (statement: string) => {
    const at = performance.now();
    const rows = await session.run(statement);
    timings.push({ statement: statement.replace(/\s+/g, ' ').slice(0, 60), seconds: (performance.now() - at) / 1000 });
    return rows;
  };
  /** One statement per part of the plan (`part` a number below `session.parallel`), run together. */
  const inParts = async (statement: (part: number) => string) => {
    const at = performance.now();
    await session.together(Array.from({ length: session.parallel }, (_, part) => statement(part)));
    timings.push({ statement: statement(0).replace(/\s+/g, ' ').slice(0, 60), seconds: (performance.now() - at) / 1000 });
  };

  const clients = Array.from({ length: options.clients }, (_, i) => {
    const transactions = i === 0 ? options.bigClientTransactions : options.otherClientTransactions;
    return {
      no: i,
      id: randomUUID(),
      secretKey: `sk_test_${randomBytes(24).toString('base64url')}`,
      publicKey: `pk_test_${randomBytes(24).toString('base64url')}`,
      feeAccountId: randomUUID(),
      externalAccountId: randomUUID(),
      payoutsAccountId: randomUUID(),
      keyId: randomUUID(),
      fileId: randomUUID(),
      webhookId: randomUUID(),
      webhookSecret: `whsec_${randomBytes(32).toString('base64url')}`,
      transactions,
      pairs: Math.max(2, Math.ceil(transactions / TRANSACTIONS_PER_PAIR)),
      // Each client a second after the one before it, so their ids and lists keep one order.
      createdAt: new Date(clientsCreatedAt.getTime() + i * 1000),
    };
  });

  // Reaches one connection: the embedded database's only one. generatorPool's connections have it set already.
  await run('set synchronous_commit = off');
  await run('drop schema if exists gen cascade');
  await run('create schema gen');
  // Autovacuum would chase the inserts through tables growing by gigabytes; the VACUUM at the end does its work once.
  const appTables = (await run(`select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`)).map((r) =>
    String(r.relname).replace(/"/g, '""'),
  );
  for (const table of appTables) await run(`alter table "${table}" set (autovacuum_enabled = false)`);
  // The list-counting triggers are dropped for the load and made again from their own definitions at the end,
  // the totals counted once then. Disabled is not enough: a statement still keeps a copy of every row it writes
  // for a disabled trigger's transition table (gigabytes of event JSON in temporary files at a million).
  const triggers = await run(`select t.tgname as name, c.relname as table, pg_get_triggerdef(t.oid) as definition
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where not t.tgisinternal and c.relnamespace = 'public'::regnamespace order by c.relname, t.tgname`);
  for (const t of triggers) await run(`drop trigger "${String(t.name)}" on "${String(t.table)}"`);
  // UUIDv7 as lib/server/ids.ts makes them: 48 bits of ms, version 7, a 12-bit counter, the rest random.
  await run(`create or replace function gen.uuid7(at timestamptz, counter bigint) returns uuid language sql volatile as $$
    select (lpad(to_hex(floor(extract(epoch from at) * 1000)::bigint), 12, '0') || '7' || lpad(to_hex(counter & 4095), 3, '0')
      || substr(replace(gen_random_uuid()::text, '-', ''), 17, 16))::uuid $$`);

  await run(`create unlogged table gen.gen_client (client_no int primary key, client_id uuid, fee_account_id uuid, external_account_id uuid,
    payouts_account_id uuid, file_id uuid, webhook_id uuid, tx_count int, pairs int, created_at timestamptz)`);
  await run(`insert into gen.gen_client values ${clients
    .map((c) => `(${c.no}, '${c.id}', '${c.feeAccountId}', '${c.externalAccountId}', '${c.payoutsAccountId}', '${c.fileId}', '${c.webhookId}', ${c.transactions}, ${c.pairs}, ${ts(c.createdAt)})`)
    .join(', ')}`);

  // Clients as create-client.ts makes them: three house accounts, the client, one secret key (its hash).
  await run(`insert into ledger_accounts (id, client_id, kind, balance_kobo, created_at, updated_at)
    select a.id, c.client_id, a.kind, 0, c.created_at, c.created_at from gen.gen_client c
    cross join lateral (values (c.fee_account_id, 'platform_fees'), (c.external_account_id, 'external'), (c.payouts_account_id, 'payouts_in_flight')) a (id, kind)`);
  await run(`insert into clients (id, name, mode, public_key, is_kyc_completed, fee_basis_points, fee_cap_kobo, fee_account_id, external_account_id,
      payouts_account_id, auto_payout, clock_offset_ms, created_at, updated_at) values ${clients
        .map(
          (c) =>
            `('${c.id}', ${quote(`Bench client ${c.no + 1}`)}, 'test', ${quote(c.publicKey)}, true, ${DEFAULT_FEE_POLICY.basisPoints}, ${DEFAULT_FEE_POLICY.capKobo}, '${c.feeAccountId}', '${c.externalAccountId}', '${c.payoutsAccountId}', false, 0, ${ts(c.createdAt)}, ${ts(c.createdAt)})`,
        )
        .join(', ')}`);
  await run(`insert into api_keys (id, client_id, key_hash, last4, created_at, expires_at) values ${clients
    .map((c) => `('${c.keyId}', '${c.id}', '${hashSecretKey(c.secretKey)}', ${quote(c.secretKey.slice(-4))}, ${ts(c.createdAt)}, null)`)
    .join(', ')}`);
  // The proof every delivery names: one stored file per client, as POST /v1/files keeps it.
  const proofSha = createHash('sha256').update(PROOF_PNG).digest('hex');
  await run(`insert into files (id, client_id, filename, content_type, size, sha256, content, created_at)
    select c.file_id, c.client_id, 'proof.png', 'image/png', ${PROOF_PNG.length}, '${proofSha}', decode('${PROOF_PNG.toString('hex')}', 'hex'), c.created_at from gen.gen_client c`);
  if (webhooks) {
    // Deleted (disabled) once the history was delivered: a benchmark's new events send nothing anywhere.
    await run(`insert into webhook_endpoints (id, client_id, url, description, secret, enabled, created_at, updated_at)
      select c.webhook_id, c.client_id, 'https://hooks.example.com/escrow-desk', 'Order system', v.secret, false, c.created_at, ${ts(now)}
      from gen.gen_client c join (values ${clients.map((c) => `('${c.webhookId}'::uuid, ${quote(c.webhookSecret)})`).join(', ')}) v (id, secret) on v.id = c.webhook_id`);
  }

  // Buyers and sellers as users.ts creates them: user, wallet (a ledger account), organisation, party.
  await run(`create unlogged table gen.gen_user with (autovacuum_enabled = false) as
    select c.client_no, c.client_id, pair, role,
      c.created_at + interval '1 second' * (pair * 2 + (role = 'seller')::int + 1) as created_at,
      row_number() over () as user_no
    from gen.gen_client c cross join generate_series(0, c.pairs - 1) pair cross join (values ('buyer'), ('seller')) r (role)`);
  await run(`alter table gen.gen_user add column user_id uuid, add column wallet_id uuid, add column organisation_id uuid, add column party_id uuid`);
  await run(`update gen.gen_user set user_id = gen.uuid7(created_at, 0), wallet_id = gen.uuid7(created_at, 1),
    organisation_id = gen.uuid7(created_at, 2), party_id = gen.uuid7(created_at, 3)`);
  await run('create index on gen.gen_user (client_no, pair, role)');
  const first = `initcap(u.role)`;
  const last = `('No. ' || (u.pair + 1))`;
  const email = `(u.role || '.' || (u.pair + 1) || '@client' || (u.client_no + 1) || '.example.com')`;
  await run(`insert into users (id, client_id, first_name, last_name, user_name, email, email_lower, created_at, updated_at)
    select u.user_id, u.client_id, ${first}, ${last}, u.role || '_' || lpad(to_hex(((u.user_no * 2654435761) % 4294967296)::bigint), 8, '0'),
      ${email}, ${email}, u.created_at, u.created_at from gen.gen_user u`);
  await run(`insert into ledger_accounts (id, client_id, kind, balance_kobo, created_at, updated_at)
    select u.wallet_id, u.client_id, 'wallet', 0, u.created_at, u.created_at from gen.gen_user u`);
  await run(`insert into wallets (id, client_id, user_id, name, account_reference, provider, created_at, updated_at)
    select u.wallet_id, u.client_id, u.user_id, ${first} || ' ' || ${last}, 'ESW_' || upper(substr(md5(u.wallet_id::text), 1, 12)), 'ESCROW_DESK_SANDBOX', u.created_at, u.created_at
    from gen.gen_user u`);
  await run(`insert into organisations (id, client_id, user_id, name, wallet_id, created_by, created_at, updated_at)
    select u.organisation_id, u.client_id, u.user_id, ${first} || ' ' || ${last}, u.wallet_id, u.client_id, u.created_at, u.created_at from gen.gen_user u`);
  await run(`insert into parties (id, client_id, user_id, organisation_id, created_at, updated_at)
    select u.party_id, u.client_id, u.user_id, u.organisation_id, u.created_at, u.created_at from gen.gen_user u`);

  // The plan of every transaction: who, how much, which story, and when.
  const recentStates = DATASET_STATES.flatMap((s, i) => (s.recent ? [i] : []));
  await run(`create unlogged table gen.gen_tx with (autovacuum_enabled = false) as
    select c.client_no, c.client_id, c.fee_account_id, c.file_id, k, ${stateOfIndexSql('k', options.states)} as state,
      k % c.pairs as pair,
      (1000 + (k * 7919 + c.client_no::bigint * 104729) % 500000)::bigint * 100 as amount1,
      (1000 + (k * 15485863 + c.client_no::bigint * 32452843) % 250000)::bigint * 100 as amount2,
      (case when k % 5 < 3 then 'SELLER_100' when k % 5 = 3 then 'BUYER_100' else 'SPLIT_50_50' end) as payer,
      date_trunc('milliseconds', c.created_at + interval '1 day' + (${ts(now)} - c.created_at - interval '2 days') * (k::float8 / greatest(c.tx_count, 1))) as created_at,
      ((k + c.client_no) % ${session.parallel})::int as part
    from gen.gen_client c cross join generate_series(0::bigint, c.tx_count - 1) k`);
  // A story whose last step starts a running deadline happened in the last three days, so the deadline lies ahead of now.
  if (recentStates.length > 0) {
    await run(`update gen.gen_tx set created_at = date_trunc('milliseconds', ${ts(now)} - interval '2 days' - interval '1 second' * ((k * 7919) % 86400))
      where state in (${recentStates.join(', ')})`);
  }
  await run(`alter table gen.gen_tx add column span interval, add column fee1 bigint, add column fee2 bigint, add column tx_id uuid,
    add column m1_id uuid, add column m2_id uuid, add column escrow1_id uuid, add column escrow2_id uuid`);
  // Fees as fees.ts reckons them: basis points rounded half up, then the cap.
  const fee = (amount: string) =>
    `least(floor((${amount} * ${DEFAULT_FEE_POLICY.basisPoints} + 5000) / 10000)::bigint, ${DEFAULT_FEE_POLICY.capKobo ?? 'null'})`;
  await run(`update gen.gen_tx set span = least(interval '12 days', ${ts(now)} - created_at - interval '1 hour'),
    fee1 = ${fee('amount1')}, fee2 = ${fee('amount2')},
    tx_id = gen.uuid7(created_at, 0), m1_id = gen.uuid7(created_at, 1), m2_id = gen.uuid7(created_at, 2),
    escrow1_id = gen.uuid7(created_at, 3), escrow2_id = gen.uuid7(created_at, 4)`);
  await run(`alter table gen.gen_tx add column funding1 bigint, add column funding2 bigint, add column to_seller1 bigint, add column to_seller2 bigint,
    add column due1 timestamptz, add column due2 timestamptz`);
  await run(`update gen.gen_tx g set funding1 = amount1 + ${buyerFeeShare('fee1')}, funding2 = amount2 + ${buyerFeeShare('fee2')},
    to_seller1 = amount1 - (fee1 - ${buyerFeeShare('fee1')}), to_seller2 = amount2 - (fee2 - ${buyerFeeShare('fee2')}),
    due1 = ${firstDueSql()}, due2 = ${firstDueSql()} + interval '30 days'`);
  await run(`alter table gen.gen_tx add column contract_url text, add column proof_url text`);
  await run(`update gen.gen_tx set contract_url = '${baseUrl}/v1/transactions/' || tx_id, proof_url = '${baseUrl}/v1/files/' || file_id`);
  await run(`alter table gen.gen_tx add column buyer_party_id uuid, add column seller_party_id uuid, add column buyer_wallet_id uuid, add column seller_wallet_id uuid`);
  await run(`update gen.gen_tx g set buyer_party_id = b.party_id, buyer_wallet_id = b.wallet_id, seller_party_id = s.party_id, seller_wallet_id = s.wallet_id
    from gen.gen_user b, gen.gen_user s
    where b.client_no = g.client_no and b.pair = g.pair and b.role = 'buyer' and s.client_no = g.client_no and s.pair = g.pair and s.role = 'seller'`);

  // Every step of every transaction, one row each: the events, log lines and money follow from these.
  await run(`create unlogged table gen.gen_step with (autovacuum_enabled = false) as
    select g.*, s.sequence, s.kind, s.position, s.milestone_status, s.transaction_status, s.canceled, s.refunded,
      ${fraction('s.at')} as at, gen.uuid7(${fraction('s.at')}, 400) as event_id
    from gen.gen_tx g join (values ${stepsValues()}) s (state, sequence, kind, position, at, milestone_status, transaction_status, canceled, refunded) on s.state = g.state`);
  // Statistics for the planner, whose joins on the plan would otherwise guess at its size.
  await run('analyze gen.gen_tx, gen.gen_step');

  const outcomes = DATASET_STATES.map(playState);
  const stepAt = (at: number | null) => (at === null ? 'null::timestamptz' : fraction(at));
  const milestoneColumn = (position: 1 | 2, value: (o: ReturnType<typeof playState>['milestones'][number], state: number) => string) =>
    byState((i) => value(outcomes[i]!.milestones[position - 1]!, i));
  const proofUrl = 'g.proof_url';
  const cancelStep = (i: number) => outcomes[i]!.steps.find((s) => s.kind === 'cancel');
  const refundedPositions = (i: number) => outcomes[i]!.steps.flatMap((s) => (s.kind === 'approve_return' ? [s.position] : s.refunded));
  const positionsWhere = (i: number, kind: 'fund' | 'accept') => outcomes[i]!.steps.filter((s) => s.kind === kind).map((s) => s.position);
  const sumOver = (positions: number[], column: 'funding' | 'to_seller') => sumAt(sqlArray(positions), column);

  await inParts((part) => `insert into transactions (id, client_id, title, description, currency, location_type, category, sub_category, transaction_contract_url,
      status, transaction_originator, buyer_party_id, seller_party_id, source, commission_payer, transaction_amount_kobo, total_amount_funded_kobo,
      total_amount_refunded_kobo, total_amount_disbursed_kobo, current_milestone_id, is_completed, on_last_milestone, approved_at, date_canceled,
      ended_by, end_reason, fee_basis_points, created_at, updated_at)
    select g.tx_id, g.client_id, 'Order ' || (g.k + 1), 'Goods bought through the marketplace', 'NGN', 'LOCAL', 'GOODS', 'Food/beverage/agriculture',
      g.contract_url,
      ${byState((i) => quote(outcomes[i]!.status))}, 'BUYER', g.buyer_party_id, g.seller_party_id, 'api', g.payer, g.amount1 + g.amount2,
      ${byState((i) => sumOver(positionsWhere(i, 'fund'), 'funding'))},
      ${byState((i) => sumOver(refundedPositions(i), 'funding'))},
      ${byState((i) => sumOver(positionsWhere(i, 'accept'), 'to_seller'))},
      ${byState((i) => (outcomes[i]!.currentPosition === null ? 'null::uuid' : `g.m${outcomes[i]!.currentPosition}_id`))},
      ${byState((i) => String(outcomes[i]!.isCompleted))}, ${byState((i) => String(outcomes[i]!.onLastMilestone))},
      ${byState((i) => stepAt(outcomes[i]!.completedAt))}, ${byState((i) => stepAt(outcomes[i]!.canceledAt))},
      ${byState((i) => (cancelStep(i) ? `'buyer'` : 'null'))}, ${byState((i) => (cancelStep(i) ? quote(CANCEL_REASON) : 'null'))},
      ${DEFAULT_FEE_POLICY.basisPoints}, g.created_at, ${byState((i) => stepAt(outcomes[i]!.updatedAt))}
    from gen.gen_tx g where g.part = ${part}`);

  for (const position of [1, 2] as const) {
    const m = money(String(position));
    await inParts((part) => `insert into milestones (id, client_id, transaction_id, title, description, amount_kobo, fee_kobo, is_milestone_funded, position_in_transaction,
        is_delivered, is_completed, delivery_rejection_reason, is_delivery_rejected, is_return_proof_sent, is_return_approved, is_return_rejected,
        due_date_type, due_date, status, commission_payer, inspection_duration, inspection_end_date, return_deadline_date, rate_used_basis_points,
        proofs_of_completion, proofs_of_return, amount_released_kobo, created_at, updated_at)
      select ${m.milestoneId}, g.client_id, g.tx_id, ${quote(position === 1 ? 'Deposit' : 'Balance')}, 'Goods as described', ${m.amount}, ${m.fee},
        ${milestoneColumn(position, (o) => String(o.funded))}, ${position},
        ${milestoneColumn(position, (o) => String(o.delivered))}, ${milestoneColumn(position, (o) => String(o.completed))},
        ${milestoneColumn(position, (o) => (o.rejectedAt !== null ? quote(REJECTION_REASON) : 'null::text'))},
        ${milestoneColumn(position, (o) => String(o.deliveryRejected))}, ${milestoneColumn(position, (o) => String(o.returnProofSent))},
        ${milestoneColumn(position, (o) => String(o.returnApproved))}, false,
        'DEADLINE_DATE', g.due${position}, ${milestoneColumn(position, (o) => quote(o.status))}, g.payer, ${INSPECTION_DAYS_DEFAULT},
        ${milestoneColumn(position, (o) => (o.deliveredAt === null ? 'null::timestamptz' : `${fraction(o.deliveredAt)} + interval '${INSPECTION_DAYS_DEFAULT} days'`))},
        ${milestoneColumn(position, (o) => (o.rejectedAt === null ? 'null::timestamptz' : `${fraction(o.rejectedAt)} + interval '${RETURN_WINDOW_DAYS} days'`))},
        ${DEFAULT_FEE_POLICY.basisPoints},
        ${milestoneColumn(position, (o) => (o.delivered ? `jsonb_build_array(${proofUrl})` : `'[]'::jsonb`))},
        ${milestoneColumn(position, (o) => (o.rejectedAt !== null ? `jsonb_build_array(${proofUrl})` : `'[]'::jsonb`))},
        ${milestoneColumn(position, (o) => (o.completed ? String(m.amount) : 'null::bigint'))},
        g.created_at, ${milestoneColumn(position, (o) => fraction(o.updatedAt))}
      from gen.gen_tx g where g.part = ${part}`);
    await inParts((part) => `insert into ledger_accounts (id, client_id, kind, balance_kobo, created_at, updated_at)
      select ${m.escrowId}, g.client_id, 'escrow', 0, g.created_at, g.created_at from gen.gen_tx g where g.part = ${part}`);
    await inParts((part) => `insert into milestone_escrows (id, milestone_id, created_at, updated_at)
      select ${m.escrowId}, ${m.milestoneId}, g.created_at, g.created_at from gen.gen_tx g where g.part = ${part}`);
  }

  // The money: one transfer per funding, release and refund, with the postings ledger.ts makes (zero legs dropped).
  const s = money('g.position');
  const inspectionEnd = `(g.at + interval '${INSPECTION_DAYS_DEFAULT} days')`;
  const returnDeadline = `(g.at + interval '${RETURN_WINDOW_DAYS} days')`;
  await run(`create unlogged table gen.gen_money with (autovacuum_enabled = false) as
    select g.*, p.refund_position, gen.uuid7(g.at, 100 + coalesce(p.refund_position, 0)) as transfer_id
    from gen.gen_step g
    cross join lateral (select null::int as refund_position where g.kind in ('fund', 'accept', 'approve_return')
      union all select unnest(g.refunded) where g.kind = 'cancel') p`);
  await run('analyze gen.gen_money');
  const refund = money('coalesce(g.refund_position, g.position)');
  await inParts((part) => `insert into ledger_transfers (id, client_id, kind, milestone_id, description, created_at)
    select g.transfer_id, g.client_id,
      case g.kind when 'fund' then 'milestone_funding' when 'accept' then 'release' else 'refund' end,
      ${refund.milestoneId},
      case g.kind when 'fund' then 'Funding of milestone ' || g.position when 'accept' then 'Release of milestone ' || g.position
        when 'approve_return' then 'Refund of milestone ' || g.position
        else 'Refund of milestone ' || g.refund_position || ': transaction canceled' end,
      g.at
    from gen.gen_money g where g.part = ${part}`);
  await inParts((part) => `insert into ledger_entries (id, transfer_id, account_id, amount_kobo, created_at)
    select gen.uuid7(g.at, 200 + leg.no), g.transfer_id, leg.account_id, leg.amount, g.at
    from gen.gen_money g cross join lateral (values
      (1, case g.kind when 'fund' then g.buyer_wallet_id else ${refund.escrowId} end,
          case g.kind when 'fund' then -${s.funding} else -${refund.funding} end),
      (2, case g.kind when 'fund' then ${s.escrowId} when 'accept' then g.seller_wallet_id else g.buyer_wallet_id end,
          case g.kind when 'fund' then ${s.funding} when 'accept' then ${s.toSeller} else ${refund.funding} end),
      (3, g.fee_account_id, case g.kind when 'accept' then ${s.fee} else 0 end)
    ) leg (no, account_id, amount)
    where leg.amount <> 0 and g.part = ${part}`);

  // Each buyer's sandbox top-up before its first deal: what its fundings took, and something to spare.
  await run(`create unlogged table gen.gen_topup with (autovacuum_enabled = false) as
    select u.client_id, c.external_account_id, u.wallet_id, u.user_id, u.created_at + interval '1 minute' as at,
      ${SPARE_WALLET_KOBO} + coalesce(f.total, 0) as amount, gen.uuid7(u.created_at + interval '1 minute', 0) as transfer_id
    from gen.gen_user u join gen.gen_client c on c.client_no = u.client_no
    left join (select g.buyer_wallet_id, sum(${s.funding}) as total from gen.gen_step g where g.kind = 'fund' group by g.buyer_wallet_id) f on f.buyer_wallet_id = u.wallet_id
    where u.role = 'buyer'`);
  await run(`insert into ledger_transfers (id, client_id, kind, description, created_at)
    select t.transfer_id, t.client_id, 'wallet_funding', 'Sandbox funding of ' || ${naira('t.amount')}, t.at from gen.gen_topup t`);
  await run(`insert into ledger_entries (id, transfer_id, account_id, amount_kobo, created_at)
    select gen.uuid7(t.at, 1 + leg.no), t.transfer_id, leg.account_id, leg.amount, t.at
    from gen.gen_topup t cross join lateral (values (1, t.external_account_id, -t.amount), (2, t.wallet_id, t.amount)) leg (no, account_id, amount)`);
  // Balances are the sums of their entries, as the balance updates of post-transfer.ts leave them.
  await run(`update ledger_accounts a set balance_kobo = e.total, updated_at = e.last_at
    from (select account_id, sum(amount_kobo) as total, max(created_at) as last_at from ledger_entries group by account_id) e
    where e.account_id = a.id`);

  // Log lines, as each step writes them.
  const logMessage = `case g.kind
      when 'fund' then 'Buyer funded the milestone: ' || ${naira(s.funding)} || ' moved from the buyer''s wallet into escrow.'
      when 'deliver' then 'Seller delivered the milestone with 1 proof of completion; inspection started and runs until ' || ${lagos(inspectionEnd)} || '.'
      when 'accept' then 'Buyer accepted the delivery; ' || ${naira(s.toSeller)} || ' released to the seller (fee ' || ${naira(s.fee)} || ').'
      when 'reject' then 'Buyer rejected the delivery ("${REJECTION_REASON}") and sent proof of return; the seller has until ' || ${lagos(returnDeadline)} || ' to answer.'
      when 'approve_return' then 'Seller approved the return; ' || ${naira(s.funding)} || ' refunded to the buyer.' end`;
  const actor = `case g.kind when 'create' then 'client' when 'deliver' then 'seller' when 'approve_return' then 'seller' else 'buyer' end`;
  await inParts((part) => `insert into milestone_logs (id, milestone_id, log_message, actor, is_automatic, created_at, updated_at)
    select gen.uuid7(g.at, 300 + l.position), ${money('l.position').milestoneId},
      case when g.kind = 'create' then 'Milestone created; waiting for the buyer to fund it.'
        when g.kind = 'cancel' then 'Transaction canceled by the buyer (' || ${byState((i) => quote(DATASET_STATES[i]!.cancelWhy ?? ''))} || '): milestone canceled'
          || case when l.position = any(g.refunded) then '; ' || ${naira(money('l.position').funding)} || ' returned from escrow to the buyer''s wallet' else '' end || '.'
        else ${logMessage} end,
      ${actor}, false, g.at, g.at
    from gen.gen_step g cross join lateral (
      select p as position from unnest(case g.kind when 'create' then array[1, 2] when 'cancel' then g.canceled else array[g.position] end) p) l
    where g.part = ${part}`);

  // Events with each transaction's sequence from 1 (record-event.ts), carrying the records as they stood after their step.
  await run('create unlogged table gen.gen_party_record (party_id uuid primary key, record jsonb)');
  const partyRows = await run(`select to_jsonb(p) as party, to_jsonb(u) as usr, to_jsonb(o) as org
    from gen.gen_user g join parties p on p.id = g.party_id join users u on u.id = g.user_id join organisations o on o.id = g.organisation_id`);
  for (let i = 0; i < partyRows.length; i += 500) {
    const values = partyRows.slice(i, i + 500).map((row) => {
      const graph = { party: rowFromJson(parties, row.party), user: rowFromJson(users, row.usr), organisation: rowFromJson(organisations, row.org) };
      return `('${graph.party.id}', ${quote(JSON.stringify(partyRecord(graph)))}::jsonb)`;
    });
    await run(`insert into gen.gen_party_record values ${values.join(', ')}`);
  }
  await run(`create unlogged table gen.gen_milestone_after with (autovacuum_enabled = false) as select * from (values ${snapshotValues(outcomes)})
    v (state, sequence, position, status, funded, delivered, completed, rejected, return_proof_sent, return_approved, delivered_at, rejected_at, updated_at, held, escrow_moved_at, allowed)`);
  await run(`create unlogged table gen.gen_transaction_after with (autovacuum_enabled = false) as select * from (values ${transactionSnapshotValues(outcomes)})
    v (state, sequence, status, current_position, is_completed, on_last_milestone, completed_at, canceled_at, updated_at, funded, released, refunded, allowed)`);
  await run('analyze gen.gen_party_record, gen.gen_milestone_after, gen.gen_transaction_after');
  const transactionJson = transactionRecordJson('ta');
  const withParties = `${transactionJson} || jsonb_build_object('buyer', bp.record, 'seller', sp.record)`;
  const withMilestones = `${withParties} || jsonb_build_object('milestones', jsonb_build_array(${milestoneRecordJson('m1', 1)}, ${milestoneRecordJson('m2', 2)}), 'allowed_actions', ta.allowed, 'deadlines', '[]'::jsonb)`;
  const actedMilestone = `case g.position when 1 then ${milestoneRecordJson('m1', 1)} else ${milestoneRecordJson('m2', 2)} end`;
  const refundedTotal = sumAt('g.refunded', 'funding');
  const cancelMessage = `'Transaction canceled by the buyer: ' || cardinality(g.canceled) || ' unfinished milestone' || case when cardinality(g.canceled) = 1 then '' else 's' end
    || ' canceled, ' || ${naira(refundedTotal)} || ' returned to the buyer.'`;
  await inParts((part) => `insert into events (id, client_id, type, transaction_id, sequence, milestone_id, data, created_at)
    select g.event_id, g.client_id,
      case g.kind when 'create' then 'transaction.created' when 'fund' then 'milestone.funded' when 'deliver' then 'milestone.delivered'
        when 'accept' then 'milestone.delivery_accepted' when 'reject' then 'milestone.delivery_rejected' when 'approve_return' then 'milestone.return_approved'
        else 'transaction.canceled' end,
      g.tx_id, g.sequence, case when g.position > 0 then ${s.milestoneId} end,
      case g.kind
        when 'create' then jsonb_build_object('actor', 'client', 'automatic', false, 'transaction', ${withMilestones})
        when 'cancel' then jsonb_build_object('actor', 'buyer', 'automatic', false, 'message', ${cancelMessage}, 'reason', ${quote(CANCEL_REASON)}, 'transaction', ${withMilestones})
        else jsonb_build_object('actor', ${actor}, 'automatic', false, 'message', ${logMessage}, 'milestone', ${actedMilestone} || jsonb_build_object('transaction', ${withParties})) end,
      g.at
    from gen.gen_step g
    join gen.gen_milestone_after m1 on m1.state = g.state and m1.sequence = g.sequence and m1.position = 1
    join gen.gen_milestone_after m2 on m2.state = g.state and m2.sequence = g.sequence and m2.position = 2
    join gen.gen_transaction_after ta on ta.state = g.state and ta.sequence = g.sequence
    join gen.gen_party_record bp on bp.party_id = g.buyer_party_id
    join gen.gen_party_record sp on sp.party_id = g.seller_party_id
    where g.part = ${part}`);
  await run(`insert into events (id, client_id, type, data, created_at)
    select gen.uuid7(t.at, 401), t.client_id, 'wallet.funded',
      jsonb_build_object('actor', 'client', 'automatic', false, 'amount', t.amount / 100.0, 'wallet', jsonb_build_object(
        'id', w.id, 'name', w.name, 'account_reference', w.account_reference, 'provider', w.provider, 'funder_email', w.funder_email,
        'disbursement_email', w.disbursement_email, 'bvn', w.bvn, 'pgA_provider_account_properties', w.provider_account,
        'pgB_provider_account_properties', null, 'balance', t.amount / 100.0, 'created_at', ${iso('w.created_at')}, 'updated_at', ${iso('w.updated_at')},
        'user_id', t.user_id)),
      t.at
    from gen.gen_topup t join wallets w on w.id = t.wallet_id`);
  await insertInspectionEmails(inParts);
  if (webhooks) {
    // Split by the random tail of each event's id (uuid7: the last byte is random).
    await inParts((part) => `insert into webhook_deliveries (id, client_id, endpoint_id, event_id, transaction_id, sequence, status, attempts, last_attempt_at, last_status_code, delivered_at, created_at)
      select gen_random_uuid(), e.client_id, c.webhook_id, e.id, e.transaction_id, e.sequence, 'succeeded', 1, e.created_at + interval '1 second', 200, e.created_at + interval '1 second', e.created_at
      from events e join gen.gen_client c on c.client_id = e.client_id
      where get_byte(uuid_send(e.id), 15) % ${session.parallel} = ${part}`);
  }
  await run('drop schema gen cascade');
  for (const table of appTables) await run(`alter table "${table}" reset (autovacuum_enabled)`);
  for (const t of triggers) await run(String(t.definition));
  await run('delete from list_count_changes');
  await run('delete from list_counts');
  await run('insert into list_counts (list, scope, facet, n) select list, scope, facet, n from counted_list_totals()');
  // VACUUM too: the balance updates left dead rows, and the lists read their pages off the indexes only once the visibility map is set.
  // Table by table, the biggest first, so each connection takes the next.
  const tables = await run(`select c.relname as name from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
    order by pg_total_relation_size(c.oid) desc, c.relname`);
  const vacuumStarted = performance.now();
  await vacuumTables(session, tables.map((t) => String(t.name)));
  timings.push({ statement: 'vacuum (analyze), table by table', seconds: (performance.now() - vacuumStarted) / 1000 });
  // Gigabytes just written sit dirty in memory, and the server would write them out in the background over
  // the next minutes, under whatever is measured next: written out and synced now instead.
  await run('checkpoint');
  return {
    clients: clients.map((c) => ({ id: c.id, secretKey: c.secretKey, transactions: c.transactions })),
    seconds: (performance.now() - started) / 1000,
    timings,
  };
}

/** VACUUM (ANALYZE) each table, `session.parallel` at a time: each connection takes the next table when it is done. */
async function vacuumTables(session: SqlSession, tables: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tables.length) await session.run(`vacuum (analyze) "${tables[next++]!.replace(/"/g, '""')}"`);
  };
  await Promise.all(Array.from({ length: session.parallel }, worker));
}

export const MIGRATIONS_FOLDER = path.join(__dirname, '../lib/server/db/migrations');

/**
 * The buyer's "a delivery awaits your inspection" email for each delivery, as email/outbox.ts writes it in
 * the delivery's statement: rendered by the app's own template around stand-in values that SQL then
 * swaps for each row's. The customers have no dashboard accounts, so the text without a link; `kept`, as
 * a server without SMTP_URL keeps it (a server with one would send the whole history).
 */
async function insertInspectionEmails(inParts: (statement: (part: number) => string) => Promise<void>): Promise<void> {
  const stand = { transactionTitle: 'TRANSACTION-TITLE-STAND-IN', amountKobo: 123_456_789_012, inspectionEndsAt: new Date(Date.UTC(2099, 0, 2, 3, 4)) };
  const standAmount = formatNaira(stand.amountKobo);
  const standWhen = formatLagosDateTime(stand.inspectionEndsAt);
  const filled = (text: string) =>
    `replace(replace(replace(${quote(text)}, ${quote(stand.transactionTitle)}, 'Order ' || (g.k + 1)), ${quote(standAmount)}, ${naira(money('g.position').amount)}), ${quote(standWhen)}, ${lagos(`g.at + interval '${INSPECTION_DAYS_DEFAULT} days'`)})`;
  const byPosition = (piece: 'subject' | 'text' | 'html') => {
    const [first, second] = (['Deposit', 'Balance'] as const).map((milestoneTitle) => deliveryAwaitsInspectionEmail({ ...stand, milestoneTitle, link: null })[piece]);
    return `case g.position when 1 then ${filled(first!)} else ${filled(second!)} end`;
  };
  await inParts((part) => `insert into email_outbox (id, client_id, event_id, kind, recipient_email, recipient_name, subject, text_body, html_body, dedupe_key, status, attempts, next_attempt_at, created_at, updated_at)
    select gen_random_uuid(), g.client_id, g.event_id, 'delivery_awaits_inspection', u.email, trim(u.first_name || ' ' || u.last_name),
      ${byPosition('subject')}, ${byPosition('text')}, ${byPosition('html')}, 'event:' || g.event_id || ':' || u.id, 'kept', 0, g.at, g.at, g.at
    from gen.gen_step g
    join parties p on p.id = g.buyer_party_id join users u on u.id = p.user_id
    where g.kind = 'deliver' and g.part = ${part}`);
}

/** Rows per table, counted exactly. */
export async function rowCounts(session: SqlSession): Promise<Record<string, number>> {
  const tables = (await session.run(`select tablename from pg_tables where schemaname = 'public' order by tablename`)).map((r) => String(r.tablename));
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await session.run(`select count(*)::bigint as n from "${table}"`);
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}

export type GeneratedCheck = { auditSeconds: number; databaseBytes: number; audit: Awaited<ReturnType<typeof ledgerIntegrity>> };

/** What a generated database is: the operator's ledger audit on it (and how long that took), and its size on disk. */
export async function checkGenerated(session: SqlSession, db: Db): Promise<GeneratedCheck> {
  const auditStarted = performance.now();
  const audit = await ledgerIntegrity(db);
  const auditSeconds = Number(((performance.now() - auditStarted) / 1000).toFixed(1));
  const [size] = await session.run('select pg_database_size(current_database())::bigint as bytes');
  return { auditSeconds, databaseBytes: Number(size?.bytes ?? 0), audit };
}

/** A bench script's `--name=value` flags. */
export function cliFlags(): Map<string, string> {
  return new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=', 2) as [string, string]));
}

async function main() {
  const args = cliFlags();
  const url = args.get('database-url') ?? process.env.DATABASE_URL;
  if (!url) throw new Error('Name the database: --database-url=postgres://… (a fresh one: it is migrated and filled).');
  const size = Number(args.get('size') ?? 10_000);
  const options: DatasetOptions = {
    ...datasetOptionsForSize(size),
    ...(args.has('clients') ? { clients: Number(args.get('clients')) } : {}),
  };
  const connection = generatorPool(url);
  try {
    await migrate(drizzle(connection), { migrationsFolder: MIGRATIONS_FOLDER });
    const session = postgresSession(connection);
    const generated = await generateDataset(session, options);
    const checked = await checkGenerated(session, drizzle(connection) as unknown as Db);
    const audit = checked.audit;
    const report = {
      options,
      seconds: Number(generated.seconds.toFixed(1)),
      audit_seconds: checked.auditSeconds,
      database_bytes: checked.databaseBytes,
      rows: await rowCounts(session),
      audit,
      slowest_statements: [...generated.timings].sort((a, b) => b.seconds - a.seconds).slice(0, args.has('all-timings') ? undefined : 8).map((t) => ({ ...t, seconds: Number(t.seconds.toFixed(2)) })),
      big_client: { id: generated.clients[0]?.id, secret_key: generated.clients[0]?.secretKey },
    };
    console.log(JSON.stringify(report, null, 2));
    if (!audit.balanced) process.exitCode = 1;
  } finally {
    await connection.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
