import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { isOperatorKey, presentedKey } from '@/lib/api/middleware/auth';
import { AppError } from '@/lib/server/app-error';
import { getDb } from '@/lib/server/db/client';
import { inviteOperator } from '@/lib/server/dashboard/staff';
import { dashboardLinkBase } from '@/lib/server/email/outbox';
import { env } from '@/lib/server/env';
import { clientAddressOf } from '@/lib/server/http/client-address';

const Body = z.object({ email: z.email().max(254), name: z.string().trim().min(1).max(120).default('Operator') });

const answer = (status: number, message: string, data?: unknown) => Response.json({ status: status < 300, message, ...(data ? { data } : {}) }, { status });

/**
 * For `npm run create-operator` on this machine: an operator account and its one-time sign-in link. Asked
 * of the running server, not the database, because the embedded database opens in one process only.
 * Loopback callers holding the operator key only; nobody else learns the route exists.
 */
export async function POST(request: Request) {
  const address = clientAddressOf(request.headers);
  if (!ipaddr.isValid(address) || ipaddr.process(address).range() !== 'loopback') return answer(404, 'Not found.');
  if (!env().ESCROW_OPERATOR_KEY) return answer(503, 'Set ESCROW_OPERATOR_KEY on this server first: the operator console acts with it.');
  let authorised = false;
  try {
    authorised = isOperatorKey(presentedKey(request));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  if (!authorised) return answer(401, 'This needs the operator key (ESCROW_OPERATOR_KEY) in the Authorization header.');
  const parsed = Body.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) return answer(400, 'Send {"email": "…", "name": "…"} with a valid email address.');
  const invited = await inviteOperator(await getDb(), { ...parsed.data, now: new Date() });
  if (!invited.ok) return answer(409, invited.message);
  return answer(201, 'Operator invited', { email: invited.account.email, sign_in_url: `${dashboardLinkBase()}/invite/${invited.token}`, expires_at: invited.expiresAt.toISOString() });
}
