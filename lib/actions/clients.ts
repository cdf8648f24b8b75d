'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { ConnectClientKeyInput, CreateClientInput, InviteClientAdminInput, UpdateClientInput, type InviteResult } from '@/lib/contracts/dashboard-staff';
import { getDb } from '@/lib/server/db/client';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { storeClientKey } from '@/lib/server/dashboard/client-keys';
import { clientView } from '@/lib/server/dashboard/operator';
import { inviteStaff } from '@/lib/server/dashboard/staff';
import { escrowWithKey, operatorEscrow } from '@/lib/server/escrow-client';

const operators = { role: 'operator', refused: 'Only the operator manages clients.' } as const;

/**
 * A new client. Its secret key is stored sealed for the dashboard, so the admins the operator invites act
 * with it at once; it is shown to nobody (an admin rolls it on the API keys page to get one to use).
 */
export const createClient = guarded(
  { input: CreateClientInput, ...operators },
  async ({ name, mode, idempotency_key }, { actor }): Promise<ActionResult<{ client_id: string }>> => {
    const created = await operatorEscrow.call('POST /operator/clients', { json: { name, mode }, idempotencyKey: idempotency_key });
    if (!created.ok) return fromApi(created);
    if (created.data.secret_key) {
      await storeClientKey(await getDb(), created.data.id, created.data.secret_key, new Date());
      await auditStaffAction(actor, 'client_created', { target: created.data.id, clientId: created.data.id, detail: { name: created.data.name, mode } });
    }
    const next = mode === 'live' ? ' Complete its KYC before it creates customers.' : '';
    return { ok: true, message: `${created.data.name} was created (${mode} mode).${next}`, data: { client_id: created.data.id } };
  },
);

export const updateClient = guarded(
  { input: UpdateClientInput, ...operators },
  async ({ client_id, idempotency_key, ...changes }, { actor }): Promise<ActionResult> => {
    const updated = await operatorEscrow.call('PATCH /operator/clients/:id', { param: { id: client_id }, json: changes, idempotencyKey: idempotency_key });
    if (updated.ok) {
      const { name, is_kyc_completed, fee_basis_points, fee_cap, auto_payout } = updated.data;
      await auditStaffAction(actor, 'client_updated', { target: client_id, clientId: client_id, detail: { name, is_kyc_completed, fee_basis_points, fee_cap, auto_payout } });
    }
    return fromApi(updated);
  },
);

/** The client's first admin (or another): an account and a one-time link, emailed and shown once here. */
export const inviteClientAdmin = guarded(
  { input: InviteClientAdminInput, ...operators },
  async ({ client_id, email, name }, { actor }): Promise<ActionResult<InviteResult>> => {
    const found = await clientView(client_id);
    if (found.kind !== 'ok') return notAllowed('That client was not found.');
    const client = found.view;
    const invited = await inviteStaff(await getDb(), { clientId: client.id, clientName: client.name, email, name, role: 'admin', invitedBy: actor.accountId, now: new Date() });
    if (!invited.ok) return { ok: false, message: invited.message, errors: [{ field: 'email', message: invited.message }] };
    await auditStaffAction(actor, 'client_admin_invited', { target: invited.account.id, clientId: client.id, detail: { email: invited.account.email, client_name: client.name } });
    const warning = client.dashboard_key ? '' : ' The dashboard holds no key for this client yet: connect it, or the admin can sign in but not act.';
    return { ok: true, message: `Invite emailed to ${invited.account.email}: the link works once, for 7 days.${warning}`, data: { invite_path: `/invite/${invited.token}` } };
  },
);

/** A key of a client made outside the console (straight through the API): checked against the client, then stored sealed. */
export const connectClientKey = guarded(
  { input: ConnectClientKeyInput, ...operators },
  async ({ client_id, secret_key }, { actor }): Promise<ActionResult> => {
    const keys = await escrowWithKey(secret_key).call('GET /keys');
    const refused = { ok: false, message: 'That key does not open this client: paste a current secret key of this client.', errors: [{ field: 'secret_key', message: 'is not a current key of this client' }] };
    if (!keys.ok) return keys.status === 401 ? refused : fromApi(keys);
    if (keys.data.client_id !== client_id) return refused;
    await storeClientKey(await getDb(), client_id, secret_key, new Date());
    await auditStaffAction(actor, 'client_key_connected', { target: client_id, clientId: client_id, detail: { mode: keys.data.mode } });
    return { ok: true, message: "The key is stored, encrypted: this client's admins act with it from now on." };
  },
);
