import 'server-only';
import type { DbOrTx } from '../db/client';
import { parties } from '../db/schema';
import { AppError } from '../app-error';
import { findParty } from '../records/people';

export { findParty };

export type PartyRow = typeof parties.$inferSelect;

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
