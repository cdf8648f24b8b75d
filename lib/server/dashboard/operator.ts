import 'server-only';
import type { z } from 'zod';
import type { ClientDetailView, ClientRow } from '@/lib/contracts/dashboard-staff';
import type * as R from '@/lib/contracts/records';
import { getDb } from '../db/client';
import { operatorEscrow, type ApiResult } from '../escrow-client';
import { clientsWithKeys } from './client-keys';
import { staffOf } from './staff';
import type { View } from './views';

type ClientRecord = z.infer<typeof R.ClientRecord>;

/** Every client the service serves, newest first: the list's pages walked by cursor, a hundred at a time. */
export async function everyClient(): Promise<ApiResult<ClientRecord[]>> {
  const all: ClientRecord[] = [];
  let after: string | null = null;
  do {
    const from: { after?: string } = after ? { after } : {};
    const page = await operatorEscrow.call('GET /operator/clients', { query: { sort: 'DESC', limit: 100, ...from } });
    if (!page.ok) return page;
    all.push(...page.data.clients);
    after = page.data.pagination.nextAfter;
  } while (after !== null);
  return { ok: true, status: 200, message: 'Clients retrieved successfully', data: all };
}

/** Every client the service serves, newest first, each marked with whether the dashboard holds its key. */
export async function clientsView(): Promise<View<ClientRow[]>> {
  const [list, keys] = await Promise.all([everyClient(), getDb().then(clientsWithKeys)]);
  if (!list.ok) return { kind: 'error', failure: list };
  return { kind: 'ok', view: list.data.map((client) => ({ ...client, dashboard_key: keys.has(client.id) })) };
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
