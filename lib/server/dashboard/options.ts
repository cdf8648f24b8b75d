import 'server-only';
import { escrowFor } from '../escrow-client';
import type { ClientActor } from './actor';

/**
 * Customers for the admin's pickers: the 100 newest (the API's page limit), named and emailed; first and
 * last name apart for the payee check beside a bank's name for an account.
 */
export async function customerOptions(actor: ClientActor, purpose: 'any' | 'new_deal' = 'any'): Promise<Array<{ id: string; name: string; firstName: string; lastName: string }>> {
  const result = await escrowFor(actor).call('GET /users', { query: { page: 1, limit: 100, sort: 'DESC' } });
  if (!result.ok) return [];
  // A deactivated customer cannot be named in a new deal, so is not offered for one; payouts and bank accounts still are.
  return result.data.users.filter((u) => purpose === 'any' || u.is_active).map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name} (${u.email})`, firstName: u.first_name, lastName: u.last_name }));
}
