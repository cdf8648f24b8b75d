/**
 * Every /v1 operation once: the OpenAPI document and the docs page are generated from this list and
 * from the same zod schemas the route handlers validate with.
 */
import type { z } from 'zod';
import { ListBankAccountsQuery, SaveBankAccountBody, ValidateBankAccountBody } from './banks';
import { successEnvelope } from './common';
import {
  AddDisputeAmountBody,
  ApproveDisputeAmountBody,
  CancelDisputeBody,
  CreateDisputeBody,
  EscalateDisputeBody,
  ListDisputesQuery,
  OperatorDisputesQuery,
  RejectDisputeAmountBody,
  SubmitEvidenceBody,
  VerdictBody,
} from './disputes';
import type { ErrorCode } from './error-codes';
import { ApiKeyListRecord, RollKeyBody, RolledKeyRecord } from './keys';
import { BuyerActionBody, DeliverBody, RejectDeliveryBody, SellerActionBody } from './milestones';
import { AdvanceClockBody, CreateClientBody } from './operator';
import * as R from './records';
import { CreateTransactionBody, FundMilestoneBody, ListTransactionsQuery } from './transactions';
import { CreateUserBody, ListUsersQuery } from './users';
import { FundWalletBody, WalletHistoryQuery } from './wallets';
import { z as zod } from 'zod';
import * as W from './webhook-records';
import { CreateWebhookBody, ListDeliveriesQuery, ListEventsQuery } from './webhooks';

export type Operation = {
  id: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  tag: 'Users' | 'Transactions' | 'Milestones' | 'Disputes' | 'Wallets' | 'Bank accounts' | 'Files' | 'Sandbox' | 'Operator' | 'Events' | 'Webhooks' | 'API keys';
  summary: string;
  description?: string;
  auth: 'client' | 'operator';
  actingParty?: 'buyer' | 'seller' | 'either';
  query?: z.ZodObject;
  body?: z.ZodType;
  multipart?: boolean;
  response: z.ZodType;
  /** A binary body rather than the JSON envelope. */
  binaryResponse?: boolean;
  errors: ErrorCode[];
};

const base: ErrorCode[] = ['UNAUTHORIZED'];
const withBody: ErrorCode[] = [...base, 'INVALID_JSON', 'VALIDATION_ERROR', 'UNSUPPORTED_MEDIA_TYPE'];
const milestoneAction: ErrorCode[] = [...withBody, 'WRONG_PARTY', 'NOT_FOUND', 'INVALID_STATE'];

export const OPERATIONS: Operation[] = [
  { id: 'createClient', method: 'post', path: '/v1/operator/clients', tag: 'Operator', auth: 'operator', summary: 'Create an integrating client and its keys', description: 'The secret key is returned once; only its hash is stored. An Idempotency-Key replay answers with secret_key null.', body: CreateClientBody, response: R.ClientWithKeysRecord, errors: withBody },
  { id: 'listClients', method: 'get', path: '/v1/operator/clients', tag: 'Operator', auth: 'operator', summary: 'List integrating clients (no secret keys)', response: R.ClientListRecord, errors: base },
  { id: 'operatorDisputes', method: 'get', path: '/v1/operator/disputes', tag: 'Operator', auth: 'operator', summary: "The dispute team's queue across clients", description: 'Oldest first; filter status=ARBITRATION for the arbitration queue.', query: OperatorDisputesQuery, response: R.OperatorDisputeListRecord, errors: [...base, 'VALIDATION_ERROR'] },
  { id: 'operatorDispute', method: 'get', path: '/v1/operator/disputes/{id}', tag: 'Operator', auth: 'operator', summary: 'A dispute with both parties\' evidence', response: R.DisputeWithPartiesRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'decideVerdict', method: 'post', path: '/v1/operator/disputes/{id}/verdict', tag: 'Operator', auth: 'operator', summary: "The dispute team's verdict", description: "The seller's share (0 up to max_dispute_amount) with a written reason; the rest of the escrow goes to the buyer. Final.", body: VerdictBody, response: R.DisputeWithPartiesRecord, errors: [...withBody, 'NOT_FOUND', 'INVALID_STATE', 'DISPUTE_AMOUNT_OUT_OF_RANGE'] },
  { id: 'ledgerIntegrity', method: 'get', path: '/v1/operator/ledger/integrity', tag: 'Operator', auth: 'operator', summary: 'Audit the ledger', description: 'Every transfer balances, the ledger sums to zero, cached balances equal their entries, no wallet or escrow below zero.', response: R.LedgerIntegrityRecord, errors: base },
  { id: 'listKeys', method: 'get', path: '/v1/keys', tag: 'API keys', auth: 'client', summary: "List your secret keys (never the keys themselves)", description: 'Newest first: each key\'s last 4 characters, when it was made and when it expires (null: never). Expired keys stay listed for 30 days.', response: ApiKeyListRecord, errors: base },
  { id: 'rollKey', method: 'post', path: '/v1/keys/roll', tag: 'API keys', auth: 'client', summary: 'Roll your secret key', description: 'Returns a new secret key, shown once (only its hash is stored). Every key that works now keeps working for expires_in_hours (0 to 72, default 24; 0 revokes them at once), on every server within a second. An Idempotency-Key replay answers without the secret key.', body: RollKeyBody, response: RolledKeyRecord, errors: withBody },
  { id: 'listUsers', method: 'get', path: '/v1/users', tag: 'Users', auth: 'client', summary: 'List users', description: 'page, limit (1–100) and sort (DESC or ASC by created_at) are all required. search filters by name or email.', query: ListUsersQuery, response: R.UserListRecord, errors: [...base, 'VALIDATION_ERROR'] },
  { id: 'getUser', method: 'get', path: '/v1/users/{id}', tag: 'Users', auth: 'client', summary: 'Fetch one user', response: R.UserRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'createUser', method: 'post', path: '/v1/users', tag: 'Users', auth: 'client', summary: 'Create a user (customer) with a wallet', description: 'Reads email_address or email. A second user with the same email (case-insensitive) is 403.', body: CreateUserBody, response: R.CreatedUserRecord, errors: [...withBody, 'EMAIL_TAKEN', 'KYC_INCOMPLETE'] },
  { id: 'createTransaction', method: 'post', path: '/v1/transactions', tag: 'Transactions', auth: 'client', summary: 'Create a transaction and its milestones', description: 'Each milestone gets an escrow of balance 0 and its fee, computed now from your fee policy.', body: CreateTransactionBody, response: R.TransactionWithMilestonesRecord, errors: [...withBody, 'NOT_FOUND'] },
  { id: 'listTransactions', method: 'get', path: '/v1/transactions', tag: 'Transactions', auth: 'client', summary: 'List transactions', query: ListTransactionsQuery, response: R.TransactionListRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'getTransaction', method: 'get', path: '/v1/transactions/{id}', tag: 'Transactions', auth: 'client', summary: 'Fetch a transaction with its parties and milestones', response: R.TransactionWithMilestonesRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'getMilestone', method: 'get', path: '/v1/milestones/{id}', tag: 'Milestones', auth: 'client', summary: 'Fetch a milestone with its transaction, escrow and log', response: R.MilestoneWithLogsRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'fundMilestone', method: 'post', path: '/v1/milestones/{id}/fund', tag: 'Milestones', auth: 'client', actingParty: 'buyer', summary: "Fund a milestone from the buyer's wallet", description: "Moves the amount (plus the buyer's share of the fee) into the milestone escrow. Milestones are funded in order.", body: FundMilestoneBody, response: R.MilestoneRecord, errors: [...milestoneAction, 'INSUFFICIENT_FUNDS'] },
  { id: 'deliverMilestone', method: 'post', path: '/v1/milestones/{id}/deliver', tag: 'Milestones', auth: 'client', actingParty: 'seller', summary: 'Seller delivers with proof', description: 'The milestone goes under inspection for inspection_duration days.', body: DeliverBody, response: R.MilestoneRecord, errors: milestoneAction },
  { id: 'approveDelivery', method: 'post', path: '/v1/milestones/{id}/approve', tag: 'Milestones', auth: 'client', actingParty: 'buyer', summary: 'Buyer accepts the delivery', description: "Releases the escrow to the seller less the seller's fee share.", body: BuyerActionBody, response: R.MilestoneRecord, errors: milestoneAction },
  { id: 'rejectDelivery', method: 'post', path: '/v1/milestones/{id}/reject', tag: 'Milestones', auth: 'client', actingParty: 'buyer', summary: 'Buyer rejects the delivery with proof of return', description: 'The seller then has 7 days to approve or reject the return.', body: RejectDeliveryBody, response: R.MilestoneRecord, errors: milestoneAction },
  { id: 'approveReturn', method: 'patch', path: '/v1/milestones/{id}/reject/approve', tag: 'Milestones', auth: 'client', actingParty: 'seller', summary: 'Seller approves the return', description: 'Everything held is reimbursed to the buyer.', body: SellerActionBody, response: R.MilestoneRecord, errors: milestoneAction },
  { id: 'disapproveReturn', method: 'patch', path: '/v1/milestones/{id}/reject/disapprove', tag: 'Milestones', auth: 'client', actingParty: 'seller', summary: 'Seller rejects the return', description: 'The funds stay held; the seller may then open a dispute.', body: SellerActionBody, response: R.MilestoneRecord, errors: milestoneAction },
  { id: 'createDispute', method: 'post', path: '/v1/dispute/create', tag: 'Disputes', auth: 'client', actingParty: 'seller', summary: 'Seller opens a dispute', description: 'Only on the current milestone after the seller rejected its return. Mediation runs 3 business days.', body: CreateDisputeBody, response: R.DisputeRecord, errors: milestoneAction },
  { id: 'listDisputes', method: 'get', path: '/v1/dispute', tag: 'Disputes', auth: 'client', summary: 'List disputes', query: ListDisputesQuery, response: R.DisputeListRecord, errors: [...base, 'VALIDATION_ERROR'] },
  { id: 'getDispute', method: 'get', path: '/v1/dispute/{id}', tag: 'Disputes', auth: 'client', summary: 'Fetch a dispute with its parties, milestone and proposals', response: R.DisputeWithPartiesRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'addDisputeAmount', method: 'patch', path: '/v1/dispute/{id}/add-dispute-amount', tag: 'Disputes', auth: 'client', actingParty: 'seller', summary: 'Seller proposes (or revises) a settlement amount', description: 'Between 0 and max_dispute_amount: never above the transaction amount or the milestone payment held.', body: AddDisputeAmountBody, response: R.DisputeWithPartiesRecord, errors: [...milestoneAction, 'DISPUTE_AMOUNT_OUT_OF_RANGE'] },
  { id: 'approveDisputeAmount', method: 'patch', path: '/v1/dispute/{id}/approve-dispute-amount', tag: 'Disputes', auth: 'client', actingParty: 'buyer', summary: 'Buyer approves the proposed amount', description: "The amount goes to the seller less its fee share, the rest back to the buyer; the dispute is RESOLVED.", body: ApproveDisputeAmountBody, response: R.DisputeWithPartiesRecord, errors: milestoneAction },
  { id: 'rejectDisputeAmount', method: 'patch', path: '/v1/dispute/{id}/reject-dispute-amount', tag: 'Disputes', auth: 'client', actingParty: 'buyer', summary: 'Buyer rejects the proposed amount', description: 'The amount status goes back to PENDING and the reason is kept in the proposal history.', body: RejectDisputeAmountBody, response: R.DisputeWithPartiesRecord, errors: milestoneAction },
  { id: 'escalateDispute', method: 'patch', path: '/v1/dispute/{id}/escalate', tag: 'Disputes', auth: 'client', actingParty: 'either', summary: 'Either party escalates to evidence submission', description: 'Send buyer_id or seller_id (the party acting). Evidence submission runs 3 business days; mediation that lapses escalates itself.', body: EscalateDisputeBody, response: R.DisputeWithPartiesRecord, errors: milestoneAction },
  { id: 'submitEvidence', method: 'post', path: '/v1/dispute/{id}/evidence', tag: 'Disputes', auth: 'client', actingParty: 'either', summary: 'Either party submits evidence', description: 'Text plus files uploaded with POST /v1/files (each kept with its sha256). Refused once the window has closed. When it closes: one silent party forfeits, both silent → ARBITRATION_DECLINED, otherwise ARBITRATION.', body: SubmitEvidenceBody, response: R.DisputeWithPartiesRecord, errors: milestoneAction },
  { id: 'cancelDispute', method: 'patch', path: '/v1/dispute/{id}/cancel', tag: 'Disputes', auth: 'client', actingParty: 'seller', summary: 'Seller withdraws the dispute', description: 'Everything held is refunded to the buyer; status CANCELED.', body: CancelDisputeBody, response: R.DisputeWithPartiesRecord, errors: milestoneAction },
  { id: 'getTestClock', method: 'get', path: '/v1/test-clock', tag: 'Sandbox', auth: 'client', summary: "This client's clock", description: 'Sandbox clients can run ahead of the wall clock to see deadlines lapse.', response: R.TestClockRecord, errors: base },
  { id: 'advanceTestClock', method: 'post', path: '/v1/test-clock/advance', tag: 'Sandbox', auth: 'client', summary: 'Move sandbox time forward', description: 'Test keys only. Every deadline that lapses on the way acts before the response, as it would in real time: inspections accept, returns approve, mediation escalates, evidence windows close.', body: AdvanceClockBody, response: R.TestClockRecord, errors: [...withBody, 'LIVE_MODE_FORBIDDEN'] },
  { id: 'fundWallet', method: 'post', path: '/v1/wallets/fund', tag: 'Wallets', auth: 'client', summary: 'Sandbox: credit a wallet', description: 'Test keys only; live keys get 403.', body: FundWalletBody, response: R.WalletWithOwnerRecord, errors: [...withBody, 'NOT_FOUND', 'LIVE_MODE_FORBIDDEN', 'LIMIT_EXCEEDED'] },
  { id: 'getWallet', method: 'get', path: '/v1/wallets/{user_id}', tag: 'Wallets', auth: 'client', summary: "Fetch a user's wallet and balance", response: R.WalletWithOwnerRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'walletHistory', method: 'get', path: '/v1/wallets/{user_id}/history', tag: 'Wallets', auth: 'client', summary: "A wallet's ledger entries, newest first", query: WalletHistoryQuery, response: R.WalletHistoryRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'listBanks', method: 'get', path: '/v1/wallets/banks', tag: 'Bank accounts', auth: 'client', summary: 'List Nigerian banks and their codes', response: zod.array(R.BankRecord), errors: base },
  { id: 'saveBankAccount', method: 'post', path: '/v1/wallets/banks/disbursement', tag: 'Bank accounts', auth: 'client', summary: 'Save a disbursement bank account for a user', description: 'The NUBAN check digit is verified against the bank and the account name is looked up. Saving the same account again returns it.', body: SaveBankAccountBody, response: R.BankAccountRecord, errors: [...withBody, 'NOT_FOUND', 'INVALID_ACCOUNT_NUMBER'] },
  { id: 'listBankAccounts', method: 'get', path: '/v1/wallets/banks/list', tag: 'Bank accounts', auth: 'client', summary: 'List saved bank accounts with their users', query: ListBankAccountsQuery, response: R.BankAccountListRecord, errors: [...base, 'VALIDATION_ERROR'] },
  { id: 'validateBankAccount', method: 'post', path: '/v1/wallets/banks/validate', tag: 'Bank accounts', auth: 'client', summary: 'Account name enquiry', body: ValidateBankAccountBody, response: R.NameEnquiryRecord, errors: [...withBody, 'INVALID_ACCOUNT_NUMBER'] },
  { id: 'uploadFile', method: 'post', path: '/v1/files', tag: 'Files', auth: 'client', summary: 'Upload a proof (multipart field "file")', description: 'Images, PDF and common video/audio only, checked by content; 10 MB max. Use the returned url in proofs.', multipart: true, response: R.FileRecord, errors: [...base, 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] },
  { id: 'readFile', method: 'get', path: '/v1/files/{id}', tag: 'Files', auth: 'client', summary: 'Read a stored file back', response: zod.string().meta({ format: 'binary' }), binaryResponse: true, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'listEvents', method: 'get', path: '/v1/events', tag: 'Events', auth: 'client', summary: 'List your events, oldest first', description: "Every state change, recorded in the same database transaction as the change. sequence numbers a transaction's events from 1. type and transaction_id filter; after (an event id) lists only later events; sort=DESC for newest first.", query: ListEventsQuery, response: W.EventListRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'createWebhook', method: 'post', path: '/v1/webhooks', tag: 'Webhooks', auth: 'client', summary: 'Register a webhook endpoint', description: 'Every later event is POSTed to the URL, signed in the Escrow-Signature header. The signing secret (whsec_…) is returned once (an Idempotency-Key replay answers with secret null). https to a public address only: loopback, private, link-local and reserved addresses are refused, here and on the address each delivery connects to. At most 20 endpoints.', body: CreateWebhookBody, response: W.WebhookEndpointWithSecretRecord, errors: [...withBody, 'LIMIT_EXCEEDED'] },
  { id: 'listWebhooks', method: 'get', path: '/v1/webhooks', tag: 'Webhooks', auth: 'client', summary: 'List webhook endpoints (no secrets)', response: W.WebhookEndpointListRecord, errors: base },
  { id: 'deleteWebhook', method: 'delete', path: '/v1/webhooks/{id}', tag: 'Webhooks', auth: 'client', summary: 'Delete (disable) a webhook endpoint', description: 'Nothing more is sent to it; deliveries still waiting are marked failed. Its delivery log stays readable.', response: W.WebhookEndpointRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'rotateWebhookSecret', method: 'post', path: '/v1/webhooks/{id}/rotate-secret', tag: 'Webhooks', auth: 'client', summary: 'Rotate the signing secret', description: 'The new secret is returned once (an Idempotency-Key replay answers with secret null). For 24 hours every delivery carries two v1= signatures, by the new and the previous secret.', response: W.WebhookEndpointWithSecretRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'] },
  { id: 'listWebhookDeliveries', method: 'get', path: '/v1/webhooks/{id}/deliveries', tag: 'Webhooks', auth: 'client', summary: "An endpoint's delivery log, newest first", description: 'Each delivery with its event, status (pending, succeeded, failed), attempts, last status code or error, next attempt and delivery time. Failures are retried with exponential backoff for 3 days after the event.', query: ListDeliveriesQuery, response: W.WebhookDeliveryListRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND'] },
  { id: 'resendWebhookDelivery', method: 'post', path: '/v1/webhooks/{id}/deliveries/{delivery_id}/resend', tag: 'Webhooks', auth: 'client', summary: 'Send a delivery again now', description: 'Whatever its status; a delivery being sent at this moment is left to that attempt.', response: W.WebhookDeliveryRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'] },
  { id: 'testWebhook', method: 'post', path: '/v1/webhooks/{id}/test', tag: 'Webhooks', auth: 'client', summary: 'Send a test event to this endpoint', description: 'Records a webhook.test event and queues its delivery to this endpoint only.', response: W.WebhookDeliveryRecord, errors: [...base, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'] },
];

export function envelopeOf(operation: Operation) {
  return successEnvelope(operation.response);
}

