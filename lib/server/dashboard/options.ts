import 'server-only';
import { escrowFor } from '../escrow-client';
import type { ClientActor } from './actor';

/**
 * Customers for the admin's pickers: the 100 newest (the API's page limit), named and emailed; first and
 * last name apart for the payee check beside a bank's name for an account.
 */
export async function customerOptions(actor: ClientActor): Promise<Array<{ id: string; name: string; firstName: string; lastName: string }>> {
  const result = await escrowFor(actor).users.list({ page: 1, limit: 100, sort: 'DESC' });
  if (!result.ok) return [];
  return result.data.users.map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name} (${u.email})`, firstName: u.first_name, lastName: u.last_name }));
}
