'use server';

import { z } from 'zod';
import { getDb } from '@/lib/server/db/client';
import { answerSandboxCheckout } from '@/lib/server/checkouts/page';

const Answer = z.object({ reference: z.string().regex(/^CO_[A-Z0-9]{20}$/), answer: z.enum(['pay', 'decline']) });

/**
 * The sandbox payment page's Pay and Decline (docs/decisions.md §16). No session: the unguessable reference is the
 * credential, and only a PENDING sandbox checkout can be answered, exactly as the test helpers answer it.
 */
export async function answerCheckout(input: unknown): Promise<{ ok: true; returnTo: string | null } | { ok: false; message: string }> {
  const parsed = Answer.safeParse(input);
  if (!parsed.success) return { ok: false, message: 'There is no such payment.' };
  return answerSandboxCheckout(await getDb(), parsed.data.reference, parsed.data.answer, new Date());
}
