import 'server-only';
import { and, eq, or } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { parties } from '../db/schema';
import { AppError } from '../app-error';

export type PartyRow = typeof parties.$inferSelect;

/** Request bodies may name a party by its party id or by its user id (docs/decisions.md §5). */
export async function findParty(db: DbOrTx, clientId: string, partyOrUserId: string): Promise<PartyRow | undefined> {
  const [party] = await db
    .select()
    .from(parties)
    .where(and(eq(parties.clientId, clientId), or(eq(parties.id, partyOrUserId), eq(parties.userId, partyOrUserId))))
    .limit(1)
    .prepare('find_party')
    .execute();
  return party;
}

/**
 * 403 when the acting id is not the party the operation's "Who acts" row names. The expected party is
 * already loaded, so an id naming it (by party or user id) needs no query; any other id is looked up only
 * to be refused.
 */
export async function assertActingParty(
  db: DbOrTx,
  a: { clientId: string; role: 'buyer' | 'seller'; givenId: string; expected: PartyRow; field: string },
): Promise<PartyRow> {
  if (a.givenId === a.expected.id || a.givenId === a.expected.userId) return a.expected;
  const party = await findParty(db, a.clientId, a.givenId);
  if (!party || party.id !== a.expected.id) {
    throw new AppError(
      'WRONG_PARTY',
      `${a.field} ${a.givenId} is not the ${a.role} of this transaction: only the ${a.role} can do this.`,
    );
  }
  return party;
}
