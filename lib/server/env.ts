import 'server-only';
import path from 'node:path';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

/** 32 bytes from 64 hex digits or base64 (standard or URL-safe), else undefined. */
export function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

/** The only reader of process.env: validated once, so a bad setting fails at start with a clear message. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  ESCROW_DATA_DIR: z.string().min(1).default('./.data'),
  ESCROW_OPERATOR_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  ESCROW_SEED_DEMO: z.enum(['0', '1']).default('1'),
  /** Connections to PostgreSQL for the whole server, shared out among its worker processes. */
  ESCROW_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Set by the production server in each of its worker processes (scripts/production-server/workers.ts). */
  ESCROW_WORKER: z.coerce.number().int().min(1).optional(),
  /** How many workers answer requests; with more than one there is also a background worker (ESCROW_WORKER_ROLE). */
  ESCROW_WORKER_COUNT: z.coerce.number().int().min(1).default(1),
  ESCROW_WORKER_ROLE: z.enum(['requests', 'background']).default('requests'),
  /** Set by the primary on workers it starts once the server is serving: one that finds the database down waits for it. */
  ESCROW_WORKER_WAITS_FOR_DATABASE: z.enum(['0', '1']).default('0'),
  ESCROW_DB_PREPARED_STATEMENTS: z.enum(['0', '1']).default('1'),
  /** How long a new connection to PostgreSQL may take before the request that needed it gets 503 (docs/operations.md). */
  ESCROW_DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** PostgreSQL's statement_timeout for the app's statements (0: none). */
  ESCROW_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** PostgreSQL's lock_timeout: how long a statement waits for a row another request holds (0: no limit). */
  ESCROW_DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Live clients' payment provider (docs/decisions.md §12); test clients always use the sandbox. */
  ESCROW_PAYMENT_PROVIDER: z.enum(['sandbox', 'paystack']).default('sandbox'),
  PAYSTACK_SECRET_KEY: z.string().regex(/^sk_(test|live)_\w+$/, 'must be a Paystack secret key (sk_live_… or sk_test_…)').optional(),
  PAYSTACK_BASE_URL: z.url({ message: 'must be a URL' }).default('https://api.paystack.co'),
  /** The bank Paystack opens dedicated funding accounts at (its preferred_bank slug). */
  PAYSTACK_DEDICATED_ACCOUNT_BANK: z.string().min(1).optional(),
  /** How often the payout runner settles sandbox payouts, sends pending ones and asks about stuck ones. */
  ESCROW_PAYOUT_POLL_MS: z.coerce.number().int().min(50).default(1000),
  /** How long a payout stays PROCESSING at the provider before the runner asks about it (10 minutes; tests shorten it). */
  ESCROW_PAYOUT_REQUERY_AFTER_MS: z.coerce.number().int().min(1).default(10 * 60_000),
  /** Paystack checkouts still PENDING are asked about this long after creation (docs/decisions.md §16). */
  ESCROW_CHECKOUT_VERIFY_AFTER_MS: z.coerce.number().int().min(1).default(5 * 60_000),
  /** How long a payout may stay PROCESSING before reconciliation lists it (a day; tests shorten it). */
  ESCROW_PAYOUT_STUCK_AFTER_MS: z.coerce.number().int().min(1).default(24 * 60 * 60_000),
  ESCROW_HOLIDAYS: z.string().optional(),
  ESCROW_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  ESCROW_RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(300),
  /** Failed authentications (/v1 requests with a missing or unknown key) one client address may make a minute (http/rate-limit.ts). */
  ESCROW_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Proxies whose X-Forwarded-* headers count: addresses, CIDRs or loopback/linklocal/uniquelocal, comma-separated; read by the production server (scripts/production-server/client-address.ts). */
  ESCROW_TRUSTED_PROXIES: z
    .string()
    .optional()
    .refine((value) => !value || isTrustList(value), 'must be comma-separated IP addresses, CIDR ranges or loopback, linklocal, uniquelocal'),
  ESCROW_PUBLIC_URL: z.url().optional(),
  ESCROW_DEADLINE_POLL_MS: z.coerce.number().int().min(50).default(1000),
  /** How often the server checks whether its tables need the VACUUM and ANALYZE no autovacuum gives them (db/table-maintenance.ts). */
  ESCROW_MAINTENANCE_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** After SIGTERM, how long /readyz answers 503 while requests are still taken: a load balancer's probe interval (scripts/serve.ts). */
  ESCROW_SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** After SIGTERM, how long the requests in flight may take to be answered, and then the runners their current pass. */
  ESCROW_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /** How often the webhook dispatcher looks for due deliveries. */
  ESCROW_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /** The first retry's wait after a failed delivery; each next one doubles (30 s; tests shorten it). */
  ESCROW_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  /** How long after its event a delivery is retried before it is marked failed (3 days). */
  ESCROW_WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().min(1).default(3 * 24 * 60 * 60 * 1000),
  /** 1 lets webhooks reach loopback, private and link-local addresses (plain http too, for test clients): local development and tests only. */
  ESCROW_WEBHOOKS_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /** AES-256 key for secrets at rest (crypto/secret-box.ts): 32 bytes as 64 hex digits or base64; unset, a 0600 file under ESCROW_DATA_DIR. */
  ESCROW_ENCRYPTION_KEY: z
    .string()
    .transform((text, ctx) => {
      const key = decodeKey(text);
      if (!key) ctx.addIssue({ code: 'custom', message: 'must be 32 bytes written as 64 hex digits or in base64 (openssl rand -base64 32)' });
      return key ?? Buffer.alloc(0);
    })
    .optional(),
  /** Where email goes out (docs/decisions.md §15): smtp://user:pass@host:587 or smtps://…; unset, the outbox is kept for admins to read. */
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL').optional(),
  /** The From of every email. */
  ESCROW_EMAIL_FROM: z.string().min(3).default('Escrow Desk <no-reply@escrow-desk.invalid>'),
  /** How often the email runner sends what is due (reminders it looks for once a minute, and after a client changes: email/sender.ts). */
  ESCROW_EMAIL_POLL_MS: z.coerce.number().int().min(50).default(1000),
  /** The first retry's wait after a failed send; each next one doubles (1 minute; tests shorten it). */
  ESCROW_EMAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).default(60_000),
  /** How long a claimed email is left to its sender before a crash is presumed (longer than a send can take; tests shorten it). */
  ESCROW_EMAIL_LEASE_MS: z.coerce.number().int().min(100).default(5 * 60_000),
  // The dashboard's settings (lib/server/dashboard/config.ts).
  NEXTAUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  NEXTAUTH_URL: z.url({ message: 'must be a URL' }).optional(),
  /** Where the dashboard's server actions call the API; unset, this server's own /v1. */
  ESCROW_API_URL: z.url({ message: 'must be a URL' }).optional(),
  /** The single client whose admin the demo dashboard signs in as. */
  ESCROW_API_KEY: z
    .string()
    .regex(/^sk_(test|live)_/, 'must be a client secret key (sk_test_… or sk_live_…)')
    .optional(),
});

function isTrustList(value: string): boolean {
  try {
    proxyAddr.compile(value.split(',').map((entry) => entry.trim()).filter(Boolean));
    return true;
  } catch {
    return false;
  }
}

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  // An empty variable (FOO= in a .env file or a CI matrix) means "not set", not "set to nothing".
  const present = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Escrow Desk cannot start: ${problems}`);
  }
  if (parsed.data.ESCROW_PAYMENT_PROVIDER === 'paystack' && !parsed.data.PAYSTACK_SECRET_KEY) {
    throw new Error('Escrow Desk cannot start: ESCROW_PAYMENT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY (Paystack dashboard → Settings → API Keys).');
  }
  cached = parsed.data;
  return cached;
}

export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env().ESCROW_DATA_DIR);
}
