/**
 * The staff audit log (docs/decisions.md §14): the codes of what was done, their words for people, and an entry as
 * the dashboard shows it. Plain values without zod, so the page's client components can import them.
 */

/** Stable codes, stored in audit_log.action: renaming one strands the rows written under the old name. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'invite_sent',
  'key_rolled',
  'settings_changed',
  'verdict',
  'fund_on_behalf',
  'customer_created',
  'customer_updated',
  'customer_deactivated',
  'customer_reactivated',
  'wallet_funded',
  'transaction_created',
  'bank_account_saved',
  'bank_account_removed',
  'payout_failed',
  'payout_reversed',
  'webhook_created',
  'webhook_delivery_resent',
  'webhook_test_sent',
  'webhook_replayed',
  'webhook_secret_rotated',
  'webhook_deleted',
  'email_resent',
  'clock_advanced',
  'member_invited',
  'member_invite_resent',
  'member_removed',
  'client_created',
  'client_updated',
  'client_admin_invited',
  'client_key_connected',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  sign_in: 'Signed in',
  invite_sent: 'Invited a customer to the dashboard',
  key_rolled: 'Rolled the secret API key',
  settings_changed: 'Changed a setting',
  verdict: 'Gave a dispute verdict',
  fund_on_behalf: 'Funded a milestone for the buyer',
  customer_created: 'Created a customer',
  customer_updated: "Changed a customer's details",
  customer_deactivated: 'Deactivated a customer',
  customer_reactivated: 'Reactivated a customer',
  wallet_funded: 'Added money to a wallet (sandbox)',
  transaction_created: 'Created a transaction',
  bank_account_saved: 'Saved a bank account',
  bank_account_removed: 'Removed a bank account',
  payout_failed: 'Made a payout fail (sandbox)',
  payout_reversed: 'Reversed a paid payout (sandbox)',
  webhook_created: 'Added a webhook endpoint',
  webhook_delivery_resent: 'Resent a webhook delivery',
  webhook_test_sent: 'Sent a webhook test event',
  webhook_replayed: 'Replayed events to a webhook endpoint',
  webhook_secret_rotated: "Rotated a webhook endpoint's signing secret",
  webhook_deleted: 'Deleted (disabled) a webhook endpoint',
  email_resent: 'Resent an email',
  clock_advanced: 'Moved the test clock forward',
  member_invited: 'Invited a team member',
  member_invite_resent: "Sent a team member's invite again",
  member_removed: 'Removed a team member or revoked an invite',
  client_created: 'Created a client',
  client_updated: "Changed a client's settings",
  client_admin_invited: "Invited a client's admin",
  client_key_connected: "Connected a client's secret key",
};

export const isAuditAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);

/** Small facts about an action: names, amounts, ids. Never a secret, key, token, password or invite link. */
export type AuditDetail = Record<string, string | number | boolean | null>;

/** The dashboard roles, as an entry names the person's role when they acted. */
export type AuditRole = 'operator' | 'admin' | 'viewer' | 'customer' | 'dispute_team';

export const AUDIT_ROLE_LABELS: Record<AuditRole, string> = {
  operator: 'Operator',
  admin: 'Admin',
  viewer: 'Viewer',
  customer: 'Customer',
  dispute_team: 'Dispute team',
};

export type AuditEntry = {
  id: string;
  client_id: string | null;
  actor: { account_id: string; email: string; role: AuditRole };
  action: string;
  target: string | null;
  detail: AuditDetail;
  address: string;
  created_at: string;
};

/** What was done, in words: the action's label, or the stored code itself for a code this build does not know. */
export const auditActionLabel = (action: string): string => (isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action);
