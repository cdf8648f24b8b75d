import 'server-only';
import type { KeysView } from '@/lib/contracts/dashboard';
import { escrowFor } from '../escrow-client';
import type { ClientActor } from './actor';
import { dashboardEnv } from './config';
import type { View } from './views';

/** The marketplace's public key and its secret keys as the API lists them: last 4 characters, never a key. */
export async function keysView(actor: ClientActor): Promise<View<KeysView>> {
  const result = await escrowFor(actor).call('GET /keys');
  return result.ok ? { kind: 'ok', view: { ...result.data, fromEnvironment: Boolean(dashboardEnv().ESCROW_API_KEY) } } : { kind: 'error', failure: result };
}
