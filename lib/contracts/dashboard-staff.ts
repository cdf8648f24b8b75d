/**
 * The operator console's and the team page's form inputs (docs/decisions.md §14), and what their pages show.
 * Shared by the forms and the server actions.
 */
import { z } from 'zod';
import { Id, ShortText } from './common';
import { IdempotencyKey } from './dashboard';
import { CreateClientBody, UpdateClientFields } from './operator';
import type * as R from './records';

const intent = { idempotency_key: IdempotencyKey };

const StaffEmail = z.email({ message: 'Enter an email address' }).max(254);
const PersonName = ShortText(120);

export const CreateClientInput = CreateClientBody.extend(intent);
export const UpdateClientInput = UpdateClientFields.extend({ client_id: Id, ...intent });
/** The client's first admin (or another one), invited by the operator. */
export const InviteClientAdminInput = z.object({ client_id: Id, email: StaffEmail, name: PersonName });
/** A secret key of a client made outside the console, handed to the dashboard so its admins can sign in and act. */
export const ConnectClientKeyInput = z.object({
  client_id: Id,
  secret_key: z.string().trim().regex(/^sk_(test|live)_[A-Za-z0-9_-]{16,}$/, 'Paste a secret key: it starts with sk_test_ or sk_live_'),
});

export const TEAM_ROLES = ['admin', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const InviteMemberInput = z.object({ email: StaffEmail, name: PersonName, role: z.enum(TEAM_ROLES, { error: 'Choose admin or viewer' }) });
export const MemberInput = z.object({ account_id: Id });

export type ClientRow = z.infer<typeof R.ClientRecord> & { dashboard_key: boolean };
export type StaffMember = {
  account_id: string;
  email: string;
  name: string;
  role: TeamRole;
  /** invited: the one-time link is out and unused; expired: it lapsed or was revoked unused. */
  status: 'active' | 'invited' | 'expired';
  last_signed_in_at: string | null;
  invited_at: string;
};
export type ClientDetailView = { client: ClientRow; admins: StaffMember[] };
export type TeamView = { members: StaffMember[]; me: string; canManage: boolean };
export type InviteResult = { invite_path: string };
