import 'server-only';
import { getDb } from '../db/client';
import { env } from '../env';
import { dashboardEnv } from '../dashboard/config';
import { readClientKey } from '../dashboard/client-keys';

export type ApiCredentials = { apiUrl: string; secretKey: string };

/** No key to act with: the call is not made, and the page says what to set. */
export class CredentialsMissing extends Error {
  constructor(
    readonly code: 'CLIENT_KEY_MISSING' | 'OPERATOR_KEY_MISSING',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The secret key of the client an admin or customer belongs to. ESCROW_API_KEY when set (single-client
 * mode: a dashboard in front of one client, perhaps of an external API); otherwise that client's own key
 * from the dashboard's sealed store (dashboard/client-keys.ts), read per call so a rolled key is used at once.
 */
export async function clientCredentials(clientId: string): Promise<ApiCredentials> {
  const { apiUrl, ESCROW_API_KEY } = dashboardEnv();
  if (ESCROW_API_KEY) return { apiUrl, secretKey: ESCROW_API_KEY };
  const secretKey = await readClientKey(await getDb(), clientId);
  if (!secretKey) {
    throw new CredentialsMissing(
      'CLIENT_KEY_MISSING',
      "The dashboard holds no API key for your marketplace: it was created outside the operator console. Ask the operator to connect its key, or set ESCROW_API_KEY.",
    );
  }
  return { apiUrl, secretKey };
}

/**
 * The operator key (ESCROW_OPERATOR_KEY), for the operator console and the dispute team's area only.
 * Server-only like a client's key.
 */
export async function operatorCredentials(): Promise<ApiCredentials> {
  const key = env().ESCROW_OPERATOR_KEY;
  if (!key) throw new CredentialsMissing('OPERATOR_KEY_MISSING', 'The operator console and the dispute team area need ESCROW_OPERATOR_KEY set on this server.');
  return { apiUrl: dashboardEnv().apiUrl, secretKey: key };
}
