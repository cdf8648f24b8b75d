'use server';

import { CreateCustomerInput, CustomerActiveInput, EditCustomerInput, FundWalletInput, InviteCustomerInput, type ActionResult } from '@/lib/contracts/dashboard';
import { getDb } from '@/lib/server/db/client';
import { escrowFor } from '@/lib/server/escrow-client';
import { ensureAccount, inviteByEmail } from '@/lib/server/dashboard/accounts';
import type { Actor } from '@/lib/server/dashboard/actor';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { customerOf } from '@/lib/server/dashboard/ownership';

type Admin = Extract<Actor, { kind: 'admin' }>;
const admins = { role: 'admin', refused: 'Only an admin of the marketplace can do this.' } as const;
// A customer id from the form reaches only this client's customers: every call is made with the admin's own
// client's key, which answers 404 for another client's (docs/decisions.md §14).

/** A dashboard account for the escrow user (if none) and a fresh one-time link; the path, not the origin. */
async function inviteUser(actor: Admin, user: { id: string; email: string; first_name: string; last_name: string; is_active: boolean }): Promise<ActionResult<{ invite_path: string }>> {
  if (!user.is_active) return { ok: false, message: `${user.first_name} is deactivated: reactivate them before inviting them.` };
  const db = await getDb();
  const now = new Date();
  const { account } = await ensureAccount(
    db,
    { email: user.email, name: `${user.first_name} ${user.last_name}`, role: 'customer', clientId: actor.clientId, escrowUserId: user.id },
    now,
  );
  if (account.escrowUserId !== user.id || account.clientId !== actor.clientId) {
    return { ok: false, message: `${user.email} already signs in to the dashboard as someone else.` };
  }
  if (account.passwordHash) return { ok: false, message: `${user.first_name} already has dashboard access.` };
  const { token } = await inviteByEmail(db, account, actor.accountId, now);
  await auditStaffAction(actor, 'invite_sent', { target: user.id, detail: { email: account.email } });
  return { ok: true, message: `Invite link made for ${user.first_name} and emailed to ${user.email}: it works once, for 7 days.`, data: { invite_path: `/invite/${token}` } };
}

export const createCustomer = guarded(
  { input: CreateCustomerInput, ...admins },
  async ({ user, invite, idempotency_key }, { actor }): Promise<ActionResult<{ user_id: string; invite_path?: string }>> => {
    const created = await escrowFor(actor).call('POST /users', { json: user, idempotencyKey: idempotency_key });
    if (!created.ok) return fromApi(created);
    await auditStaffAction(actor, 'customer_created', { target: created.data.id, detail: { email: created.data.email, name: `${created.data.first_name} ${created.data.last_name}` } });
    if (!invite) return { ok: true, message: created.message, data: { user_id: created.data.id } };
    const invited = await inviteUser(actor, created.data);
    if (!invited.ok) return { ok: true, message: `${created.message}. ${invited.message}`, data: { user_id: created.data.id } };
    return { ok: true, message: `${created.message}. ${invited.message}`, data: { user_id: created.data.id, invite_path: invited.data?.invite_path } };
  },
);

export const inviteCustomer = guarded(
  { input: InviteCustomerInput, ...admins, owns: customerOf },
  async (_input, { actor, owned: user }): Promise<ActionResult<{ invite_path: string }>> => inviteUser(actor, user),
);

export const fundWallet = guarded(
  { input: FundWalletInput, ...admins },
  async ({ user_id, amount, idempotency_key }, { actor }): Promise<ActionResult<{ balance: number }>> => {
    const result = await escrowFor(actor).call('POST /wallets/fund', { json: { user_id, amount }, idempotencyKey: idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'wallet_funded', { target: user_id, detail: { amount } });
    return fromApi(result, (wallet) => ({ balance: wallet.balance }));
  },
);

export const editCustomer = guarded(
  { input: EditCustomerInput, ...admins },
  async ({ user_id, first_name, last_name, phone, idempotency_key }, { actor }): Promise<ActionResult<{ name: string }>> => {
    const result = await escrowFor(actor).call('PATCH /users/:id', { param: { id: user_id }, json: { first_name, last_name, phone: phone ?? null }, idempotencyKey: idempotency_key });
    if (!result.ok) return fromApi(result);
    const name = `${result.data.first_name} ${result.data.last_name}`;
    await auditStaffAction(actor, 'customer_updated', { target: user_id, detail: { name, phone: result.data.phone } });
    return { ok: true, message: `${name}’s details were saved.`, data: { name } };
  },
);

/** Deactivates or reactivates a customer: no new deals name them meanwhile, and they cannot sign in. */
export const setCustomerActive = guarded(
  { input: CustomerActiveInput, ...admins },
  async ({ user_id, active, idempotency_key }, { actor }): Promise<ActionResult<{ is_active: boolean }>> => {
    const result = await escrowFor(actor).call('PATCH /users/:id', { param: { id: user_id }, json: { is_active: active }, idempotencyKey: idempotency_key });
    if (!result.ok) return fromApi(result);
    const name = `${result.data.first_name} ${result.data.last_name}`;
    await auditStaffAction(actor, active ? 'customer_reactivated' : 'customer_deactivated', { target: user_id, detail: { name, email: result.data.email } });
    const message = active
      ? `${name} is active again: new transactions may name them, and they can sign in.`
      : `${name} is deactivated: no new transaction may name them and they cannot sign in. Their open transactions run on.`;
    return { ok: true, message, data: { is_active: result.data.is_active } };
  },
);
