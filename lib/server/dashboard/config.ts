import 'server-only';
import { z } from 'zod';
import { env } from '../env';

/**
 * The dashboard's own settings. lib/server/env.ts is the API's reader of process.env and belongs to the
 * API; these four are read here, validated the same way, until they are merged into it.
 */
const DashboardEnvSchema = z.object({
  NEXTAUTH_SECRET: z.string().min(32, 'NEXTAUTH_SECRET must be at least 32 characters').optional().or(z.literal('').transform(() => undefined)),
  NEXTAUTH_URL: z.url({ message: 'NEXTAUTH_URL must be a URL' }).optional().or(z.literal('').transform(() => undefined)),
  ESCROW_API_URL: z.url({ message: 'ESCROW_API_URL must be a URL' }).optional().or(z.literal('').transform(() => undefined)),
  ESCROW_API_KEY: z
    .string()
    .regex(/^sk_(test|live)_/, 'ESCROW_API_KEY must be a client secret key (sk_test_… or sk_live_…)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export type DashboardEnv = z.infer<typeof DashboardEnvSchema> & { apiUrl: string };

let cached: DashboardEnv | undefined;

export function dashboardEnv(): DashboardEnv {
  if (cached) return cached;
  const parsed = DashboardEnvSchema.safeParse({
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL,
    ESCROW_API_URL: process.env.ESCROW_API_URL,
    ESCROW_API_KEY: process.env.ESCROW_API_KEY,
  });
  if (!parsed.success) {
    throw new Error(`Escrow Desk dashboard cannot start: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  const apiUrl = (parsed.data.ESCROW_API_URL ?? `http://127.0.0.1:${env().PORT}/v1`).replace(/\/+$/, '');
  cached = { ...parsed.data, apiUrl };
  return cached;
}
