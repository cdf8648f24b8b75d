import 'server-only';
import { eq } from 'drizzle-orm';
import { changeClient } from '../client-cache';
import type { Db } from '../db/client';
import { clients, type ClientRow } from '../db/schema';

export function clientSettings(client: Pick<ClientRow, 'autoPayout'>) {
  return { auto_payout: client.autoPayout };
}

/** Every server holds the change once this answers, as with any change to a client (client-cache.ts). */
export async function updateClientSettings(db: Db, client: ClientRow, body: { auto_payout: boolean }, now: Date) {
  return changeClient(db, client.id, async (tx) => {
    const [updated] = await tx.update(clients).set({ autoPayout: body.auto_payout, updatedAt: now }).where(eq(clients.id, client.id)).returning();
    return clientSettings(updated!);
  });
}
