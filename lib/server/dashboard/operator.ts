import 'server-only';
import type { ClientDetailView, ClientRow } from '@/lib/contracts/dashboard-staff';
import { getDb } from '../db/client';
import { operatorEscrow } from '../escrow-client';
import { clientsWithKeys } from './client-keys';
import { staffOf } from './staff';
import type { View } from './views';

/** Every client the service serves, newest first, each marked with whether the dashboard holds its key. */
export async function clientsView(): Promise<View<ClientRow[]>> {
  const [list, keys] = await Promise.all([operatorEscrow.clients.list(), getDb().then(clientsWithKeys)]);
  if (!list.ok) return { kind: 'error', failure: list };
  const rows = list.data.clients.map((client) => ({ ...client, dashboard_key: keys.has(client.id) }));
  return { kind: 'ok', view: rows.sort((a, b) => b.created_at.localeCompare(a.created_at)) };
}

/** One client as the list shows it (the operator API has no single-client read). */
export async function clientView(clientId: string): Promise<View<ClientRow>> {
  const clients = await clientsView();
  if (clients.kind !== 'ok') return clients;
  const client = clients.view.find((c) => c.id === clientId);
  return client ? { kind: 'ok', view: client } : { kind: 'not_found' };
}

/** One client and its admins and viewers. */
export async function clientDetailView(clientId: string): Promise<View<ClientDetailView>> {
  const client = await clientView(clientId);
  if (client.kind !== 'ok') return client;
  return { kind: 'ok', view: { client: client.view, admins: await staffOf(await getDb(), clientId, new Date()) } };
}
