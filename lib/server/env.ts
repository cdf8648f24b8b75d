import 'server-only';
import path from 'node:path';
import { z } from 'zod';

/** The only reader of process.env: validated once, so a bad setting fails at start with a clear message. */
const EnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ESCROW_DATA_DIR: z.string().min(1).default('./.data'),
  ESCROW_OPERATOR_KEY: z.string().min(16, 'ESCROW_OPERATOR_KEY must be at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  ESCROW_SEED_DEMO: z.enum(['0', '1']).default('1'),
  ESCROW_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  ESCROW_NAME_ENQUIRY_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  ESCROW_HOLIDAYS: z.string().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Escrow Desk cannot start: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env().ESCROW_DATA_DIR);
}
