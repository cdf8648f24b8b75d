import { caseInArbitration } from './staging';
import { api, demoKey, demoReturnRejected } from './support';

/**
 * The pages each role has, for the specs that visit them all (every-page.spec.ts for looks, widths and keys,
 * dashboard-api-calls.spec.ts for the API calls per load), and the records their detail pages open.
 */
export type Visit = { name: string; path: string };

export type TourRecords = {
  /** The demo buyer's deal with the demo seller, its only milestone in dispute with the seller's offer waiting. */
  transactionId: string;
  disputeId: string;
  /** The demo buyer, Ada. */
  customerId: string;
  sellerId: string;
  /** Another client's case in arbitration (its test clock is moved, never the demo's). */
  arbitrationId: string;
};

export async function stageTourRecords(title: string): Promise<TourRecords> {
  const staged = await demoReturnRejected({ title, description: 'A deal in dispute, for the page tour', amount: 30_000, walletFunds: 40_000, rejectionReason: 'Scratched on arrival' });
  const disputeId = (await api<{ id: string }>(demoKey(), 'POST', '/v1/dispute/create', { description: 'The return was refused', buyer_id: staged.ada, seller_id: staged.tunde, milestone_id: staged.milestoneId })).id;
  await api(demoKey(), 'PATCH', `/v1/dispute/${disputeId}/add-dispute-amount`, { seller_id: staged.tunde, dispute_amount: 20_000 });
  const sandbox = await api<{ secret_key: string }>(process.env.DASHBOARD_OPERATOR_KEY!, 'POST', '/v1/operator/clients', { name: `${title} sandbox`, mode: 'test' });
  const arbitrationId = (await caseInArbitration(process.env.DASHBOARD_BASE_URL!, sandbox.secret_key)).disputeId;
  return { transactionId: staged.transactionId, disputeId, customerId: staged.ada, sellerId: staged.tunde, arbitrationId };
}

export const customerPages = (r: TourRecords): Visit[] => [
  { name: 'transactions', path: '/transactions' },
  { name: 'transaction', path: `/transactions/${r.transactionId}` },
  { name: 'dispute', path: `/disputes/${r.disputeId}` },
  { name: 'wallet', path: '/wallet' },
  { name: 'statement', path: '/wallet/statement' },
];

/** The client admin's pages about customers and their money. */
export const adminMoneyPages = (r: TourRecords): Visit[] => [
  { name: 'overview', path: '/admin/overview' },
  { name: 'transactions', path: '/admin/transactions' },
  { name: 'new-transaction', path: '/admin/transactions/new' },
  { name: 'transaction', path: `/transactions/${r.transactionId}` },
  { name: 'dispute', path: `/disputes/${r.disputeId}` },
  { name: 'customers', path: '/admin/customers' },
  { name: 'customer', path: `/admin/customers/${r.customerId}` },
  { name: 'customer-statement', path: `/admin/customers/${r.customerId}/statement` },
  { name: 'bank-accounts', path: '/admin/bank-accounts' },
  { name: 'payouts', path: '/admin/payouts' },
  { name: 'automatic-payouts', path: '/admin/payouts/automatic' },
];

/** The client admin's pages about the integration and the team. */
export const adminSettingsPages: Visit[] = [
  { name: 'webhooks', path: '/admin/webhooks' },
  { name: 'keys', path: '/admin/keys' },
  { name: 'team', path: '/admin/team' },
  { name: 'outbox', path: '/admin/outbox' },
  { name: 'sandbox', path: '/admin/sandbox' },
  { name: 'audit', path: '/admin/audit' },
];

export const disputeTeamPages: Visit[] = [{ name: 'queue', path: '/dispute-team' }];

/** The operator's console, one client's page (`clientId`) and the dispute desk it also keeps. */
export const operatorPages = (r: TourRecords, clientId: string): Visit[] => [
  { name: 'overview', path: '/operator/overview' },
  { name: 'clients', path: '/operator/clients' },
  { name: 'client', path: `/operator/clients/${clientId}` },
  { name: 'audit', path: '/operator/audit' },
  { name: 'queue', path: '/dispute-team' },
  { name: 'case', path: `/dispute-team/${r.arbitrationId}` },
];
