/** Response records, field for field as escrow-api.md lists them, plus docs/decisions.md §10 (allowed_actions, deadlines, proposals). */
import { z } from 'zod';
import { DISPUTE_ACTIONS, DISPUTE_AMOUNT_STATUSES, DISPUTE_STATUSES } from '../escrow/dispute-machine';
import { EXTENSION_ACTIONS, EXTENSION_STATUSES } from '../escrow/extensions';
import { COMMISSION_PAYERS } from '../escrow/fees';
import { PARTIAL_ACCEPTANCE_STATUSES, PARTIAL_OUTCOME_ACTIONS } from '../escrow/partial-outcomes';
import { TRANSACTION_ACTIONS } from '../escrow/transaction-actions';
import { MILESTONE_ACTIONS, MILESTONE_STATUSES, TRANSACTION_STATUSES } from '../escrow/milestone-machine';
import { Id, NullableTimestamp, Pagination, Timestamp } from './common';
import { MetadataRecord } from './metadata';

const Naira = z.number().meta({ description: 'naira' });

export const UserRecord = z
  .object({
    id: Id,
    first_name: z.string(),
    last_name: z.string(),
    user_name: z.string(),
    email: z.string(),
    default_email: z.string(),
    phone: z.string().nullable(),
    password: z.null().meta({ description: 'always null: the API stores no customer passwords (decisions §3)' }),
    is_account_verified: z.boolean(),
    password_reset: z.boolean(),
    role: z.literal('USER'),
    referredById: Id.nullable(),
    referral_code: z.string().nullable(),
    clientId: Id,
    source: z.string(),
    public_key: z.string().nullable(),
    secret_key: z.string().nullable(),
    api_enabled: z.boolean(),
    password_created: z.boolean(),
    last_logged_in_at: NullableTimestamp,
    rating: z
      .object({ average: z.number().nullable(), count: z.number().int() })
      .strict()
      .meta({ description: 'what the other parties of completed transactions rated this user, 1 to 5 (average to one decimal; null before any)' }),
    is_active: z.boolean().meta({ description: 'false while deactivated by the client: no new transaction may name this user' }),
    deactivated_at: NullableTimestamp,
    metadata: MetadataRecord,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();

export const WalletRecord = z
  .object({
    id: Id,
    name: z.string(),
    account_reference: z.string(),
    provider: z.string(),
    funder_email: z.string().nullable(),
    disbursement_email: z.string().nullable(),
    bvn: z.string().nullable(),
    pgA_provider_account_properties: z
      .object({ provider: z.literal('paystack'), account_number: z.string(), account_name: z.string(), bank_name: z.string(), customer_code: z.string() })
      .strict()
      .nullable()
      .meta({ description: 'live wallets: the dedicated bank account that funds this wallet when paid into (decisions §12)' }),
    pgB_provider_account_properties: z.null(),
    balance: Naira,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();

export const CreatedUserRecord = UserRecord.extend({ wallet: WalletRecord }).strict();
export const WalletWithOwnerRecord = WalletRecord.extend({ user_id: Id }).strict();

export const OrganisationRecord = z
  .object({
    id: Id,
    name: z.string(),
    wallet_id: Id,
    pgA_customer_code: z.string().nullable(),
    account_kyc_type: z.string().nullable(),
    is_kyc_completed: z.boolean(),
    is_kyc_submitted: z.boolean(),
    is_kyc_approved: z.boolean(),
    is_kyc_declined: z.boolean(),
    kyc_decline_reason: z.string().nullable(),
    kyc_completed_at: NullableTimestamp,
    created_by: Id.nullable(),
    kyc_approved_by: Id.nullable(),
    kyc_declined_by: Id.nullable(),
    updated_by: Id.nullable(),
    location_type: z.literal('LOCAL'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();

const partyFields = {
  id: Id,
  user_id: Id,
  organisation_id: Id,
  role: z.literal('SUPER ADMIN'),
  created_at: Timestamp,
  updated_at: Timestamp,
  user: UserRecord,
};
export const PartyRecord = z.object({ ...partyFields, organisation: OrganisationRecord }).strict();
export const PartyWithoutOrganisationRecord = z.object(partyFields).strict();

const transactionFields = {
  id: Id,
  title: z.string(),
  description: z.string(),
  currency: z.literal('NGN'),
  location_type: z.string(),
  category: z.string(),
  sub_category: z.string(),
  transaction_contract_url: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  transaction_originator: z.string(),
  buyer_id: Id.meta({ description: "the buyer's party id (a party is a user's role in transactions; either id works wherever a user is named)" }),
  seller_id: Id.meta({ description: "the seller's party id" }),
  buyer_user_id: Id.meta({ description: "the buyer's user id: the id of GET /v1/users/{id} and GET /v1/wallets/{user_id}" }),
  seller_user_id: Id.meta({ description: "the seller's user id" }),
  source: z.string(),
  clientId: Id,
  transaction_amount: Naira,
  total_amount_funded: Naira,
  total_amount_refunded: Naira,
  total_amount_disbursed: Naira,
  current_milestone_id: Id,
  job_id: z.string().nullable(),
  decline_reason: z.string().nullable(),
  is_completed: z.boolean(),
  has_buyer_rated: z.boolean(),
  has_seller_rated: z.boolean(),
  on_last_milestone: z.boolean(),
  discount_code: z.string().nullable(),
  declined_at: NullableTimestamp,
  approved_at: NullableTimestamp,
  date_canceled: NullableTimestamp.meta({ description: 'when the transaction was canceled or terminated' }),
  cancellation_request: z
    .object({ requested_by: z.enum(['buyer', 'seller']), reason: z.string(), requested_at: Timestamp })
    .strict()
    .nullable()
    .meta({ description: "a party's request to cancel, waiting for the other party's answer" }),
  ended_by: z.enum(['buyer', 'seller']).nullable().meta({ description: 'the party that canceled or terminated the transaction' }),
  end_reason: z.string().nullable(),
  commission_payer: z.enum(COMMISSION_PAYERS),
  fee_basis_points: z.number().int().meta({ description: "the fee rate this transaction's milestones were priced at, in basis points (100 = 1%): the create body's fee_basis_points, or your account's rate then" }),
  external_reference: z.string().nullable().meta({ description: 'your own id for this deal, as sent on create; null when none was' }),
  metadata: MetadataRecord,
  created_by: Id,
  updated_by: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const TransactionRecord = z.object(transactionFields).strict();
export const TransactionWithPartiesRecord = z
  .object({ ...transactionFields, buyer: PartyRecord, seller: PartyRecord })
  .strict();
export const TransactionListItemRecord = z
  .object({ ...transactionFields, buyer: PartyWithoutOrganisationRecord, seller: PartyWithoutOrganisationRecord })
  .strict();

export const MilestoneEscrowRecord = z.object({ id: Id, balance: Naira, created_at: Timestamp, updated_at: Timestamp }).strict();

export const MilestoneLogRecord = z
  .object({
    id: Id,
    log_message: z.string(),
    milestone_id: Id,
    actor: z.enum(['buyer', 'seller', 'client', 'system', 'dispute_team']),
    is_automatic: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();

export const DeadlineRecord = z
  .object({
    name: z.string(),
    due_at: Timestamp,
    counted_in: z.enum(['calendar_days', 'business_days']),
    on_lapse: z.string(),
  })
  .strict();

const allowed = <T extends readonly [string, ...string[]]>(actions: T) =>
  z.object({ buyer: z.array(z.enum(actions)), seller: z.array(z.enum(actions)) }).strict();

export const ExtensionRecord = z
  .object({
    due_date: Timestamp.meta({ description: 'the due date the seller asks for' }),
    reason: z.string(),
    status: z.enum(EXTENSION_STATUSES),
    requested_at: Timestamp,
    answered_at: NullableTimestamp.meta({ description: "the buyer's answer, or the service's when the request lapsed unanswered" }),
  })
  .strict();

export const PartialAcceptanceRecord = z
  .object({
    release_amount: Naira.meta({ description: 'naira for the seller, its fee share charged pro rata on it' }),
    refund_amount: Naira.meta({ description: "naira back to the buyer's wallet if accepted, the buyer's fee share on the rest included" }),
    reason: z.string(),
    status: z.enum(PARTIAL_ACCEPTANCE_STATUSES).meta({ description: 'WITHDRAWN: the buyer approved or rejected in full instead, or a seller refund changed what is held' }),
    proposed_at: Timestamp,
    answered_at: NullableTimestamp.meta({ description: "the seller's answer, the service's when it lapsed unanswered, or the withdrawal" }),
    decline_reason: z.string().nullable(),
  })
  .strict();

const milestoneFields = {
  id: Id,
  title: z.string(),
  description: z.string(),
  amount: Naira,
  is_milestone_funded: z.boolean(),
  position_in_transaction: z.number().int(),
  is_delivered: z.boolean(),
  is_completed: z.boolean(),
  delivery_rejection_reason: z.string().nullable(),
  is_delivery_rejected: z.boolean(),
  is_return_proof_sent: z.boolean(),
  is_return_approved: z.boolean(),
  is_return_rejected: z.boolean(),
  due_date_type: z.literal('DEADLINE_DATE'),
  due_date: Timestamp,
  execution_timeline: z.string().nullable(),
  status: z.enum(MILESTONE_STATUSES),
  commission_payer: z.enum(COMMISSION_PAYERS),
  discount_code: z.string().nullable(),
  milestone_fee: Naira,
  transaction_id: Id,
  inspection_duration: z.number().int().meta({ description: 'days' }),
  inspection_end_date: NullableTimestamp.meta({ description: 'null until the milestone is delivered' }),
  return_deadline_date: NullableTimestamp,
  current_extension_index: z.number().int().nullable().meta({ description: "0-based index in extensions of the latest approved due-date extension; null before any" }),
  extensions: z.array(ExtensionRecord).meta({ description: "the seller's due-date extension requests and the buyer's answers, oldest first" }),
  amount_refunded: Naira.meta({ description: "what the seller gave back of the price (refunds and an accepted partial acceptance's rest), fee share excluded" }),
  amount_released: Naira.nullable().meta({ description: 'what of the price the seller was paid on completion; null before' }),
  partial_acceptance: PartialAcceptanceRecord.nullable().meta({ description: "the buyer's latest partial acceptance and its answer; null before any" }),
  milestone_escrow_id: Id,
  rate_used: z.number().meta({ description: 'fee rate applied, in percent' }),
  proofs_of_completion: z.array(z.string()),
  proofs_of_return: z.array(z.string()),
  metadata: MetadataRecord,
  allowed_actions: allowed([...MILESTONE_ACTIONS, ...EXTENSION_ACTIONS, ...PARTIAL_OUTCOME_ACTIONS]).meta({
    description: 'the steps each party may take now, what each may do about the due date, and the refunds and partial acceptance open to each',
  }),
  deadlines: z.array(DeadlineRecord),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const MilestoneInTransactionRecord = z
  .object({ ...milestoneFields, milestone_escrow: MilestoneEscrowRecord })
  .strict();

export const MilestoneRecord = z
  .object({ ...milestoneFields, transaction: TransactionWithPartiesRecord, milestone_escrow: MilestoneEscrowRecord })
  .strict();

export const MilestoneWithLogsRecord = MilestoneRecord.extend({ milestone_logs: z.array(MilestoneLogRecord) }).strict();

const TransactionAllowedActions = z
  .object({ buyer: z.array(z.enum(TRANSACTION_ACTIONS)), seller: z.array(z.enum(TRANSACTION_ACTIONS)) })
  .strict()
  .meta({ description: 'what each party may do to the transaction as a whole now: cancel, answer a cancellation request, terminate, rate' });

export const TransactionWithMilestonesRecord = TransactionWithPartiesRecord.extend({
  milestones: z.array(MilestoneInTransactionRecord),
  allowed_actions: TransactionAllowedActions,
  deadlines: z.array(DeadlineRecord).meta({ description: "the transaction's own running deadlines: a cancellation request's answer (cancellation_response)" }),
}).strict();

/** One step a party owes now (docs/decisions.md §17, lib/escrow/turns.ts). */
export const TurnRecord = z
  .object({
    action: z.string().meta({ description: 'an action of allowed_actions of the transaction, the milestone or the dispute; choices (cancel, refund, request_extension…) are never a turn' }),
    due_at: NullableTimestamp.meta({ description: 'the soonest deadline of what the step belongs to (a delivery: the due date); null when nothing runs against it' }),
    milestone_id: Id.nullable().meta({ description: 'the milestone the step is taken on; null for the transaction itself' }),
    dispute_id: Id.nullable().meta({ description: 'the open dispute the step is taken in, if any' }),
  })
  .strict();

/** Whose turn it is: on the list's items and on GET /v1/transactions/{id}. */
const awaitingFields = {
  awaiting: z
    .object({ buyer: z.array(TurnRecord), seller: z.array(TurnRecord) })
    .strict()
    .meta({ description: "the steps each party owes now: the transaction's, its milestones' and its open disputes' (mediation takes turns)" }),
  next_deadline: z
    .object({
      due_at: Timestamp,
      owed_by: z.enum(['buyer', 'seller']),
      action: z.string(),
      milestone_id: Id.nullable(),
      dispute_id: Id.nullable(),
    })
    .strict()
    .nullable()
    .meta({ description: 'the soonest deadline among the steps owed, and who owes it; null when no step owed has one' }),
};

export const TransactionListEntryRecord = TransactionListItemRecord.extend({
  allowed_actions: TransactionAllowedActions,
  current_milestone: z
    .object({ id: Id, title: z.string(), status: z.enum(MILESTONE_STATUSES) })
    .strict()
    .nullable()
    .meta({ description: 'the milestone current_milestone_id names, summed up' }),
  ...awaitingFields,
}).strict();

/** A milestone's latest dispute summed up, for GET /v1/transactions/{id}?include=disputes. */
export const MilestoneDisputeSummaryRecord = z
  .object({
    id: Id,
    dispute_code: z.string(),
    status: z.enum(DISPUTE_STATUSES),
    resolution: z.enum(['agreement', 'forfeit_buyer', 'forfeit_seller', 'verdict', 'canceled', 'declined_refund']).nullable(),
    dispute_amount: Naira,
    verdict_seller_amount: Naira.nullable(),
    created_at: Timestamp,
  })
  .strict();

export const TRANSACTION_INCLUDES = ['milestone_logs', 'disputes', 'buyer_wallet'] as const;
export type TransactionInclude = (typeof TRANSACTION_INCLUDES)[number];

export const TransactionDetailRecord = TransactionWithMilestonesRecord.extend({
  milestones: z.array(
    MilestoneInTransactionRecord.extend({
      milestone_logs: z.array(MilestoneLogRecord).optional().meta({ description: 'with include=milestone_logs: the milestone\'s log lines, oldest first' }),
      latest_dispute: MilestoneDisputeSummaryRecord.nullable().optional().meta({ description: "with include=disputes: the milestone's latest dispute, null when it has none" }),
    }).strict(),
  ),
  buyer_wallet: WalletWithOwnerRecord.optional().meta({ description: "with include=buyer_wallet: the buyer's wallet, as GET /v1/wallets/{user_id} answers it" }),
  ...awaitingFields,
}).strict();

export const DisputeProposalRecord = z
  .object({
    id: Id,
    amount: Naira,
    proposed_by: z.enum(['seller', 'buyer']),
    status: z.enum(['SUBMITTED', 'REJECTED', 'APPROVED', 'SUPERSEDED']),
    rejection_reason: z.string().nullable(),
    decided_at: NullableTimestamp,
    created_at: Timestamp,
  })
  .strict();

export const EvidenceFileRecord = z
  .object({ id: Id, url: z.string(), filename: z.string(), content_type: z.string(), size: z.number().int(), sha256: z.string() })
  .strict();

export const DisputeEvidenceRecord = z
  .object({ id: Id, party: z.enum(['buyer', 'seller']), text: z.string(), files: z.array(EvidenceFileRecord), created_at: Timestamp })
  .strict();

const disputeFields = {
  id: Id,
  dispute_code: z.string(),
  description: z.string(),
  buyer_id: Id.meta({ description: "the buyer's party id" }),
  seller_id: Id.meta({ description: "the seller's party id" }),
  buyer_user_id: Id.meta({ description: "the buyer's user id" }),
  seller_user_id: Id.meta({ description: "the seller's user id" }),
  milestone_id: Id,
  status: z.enum(DISPUTE_STATUSES),
  dispute_amount_status: z.enum(DISPUTE_AMOUNT_STATUSES),
  dispute_amount: Naira,
  counter_offer_amount: Naira.nullable().meta({ description: "the buyer's latest counter-offer in mediation (dispute_amount_status COUNTER_OFFERED)" }),
  is_buyer_evidence_submitted: z.boolean(),
  is_seller_evidence_submitted: z.boolean(),
  intra_party_mediation_end_date: Timestamp,
  evidence_submission_end_date: NullableTimestamp,
  evidence_extended_by: z.array(z.enum(['buyer', 'seller'])).meta({ description: 'the parties that have used their one extension of the evidence window (+2 business days each)' }),
  cancellation_agreement_details: z.string().nullable(),
  canceled_by: z.string().nullable(),
  opened_by: z.enum(['buyer', 'seller', 'system']).meta({ description: 'who opened it: a party, or the service when nobody did within 3 business days of the rejected return' }),
  created_by: Id,
  allowed_actions: allowed(DISPUTE_ACTIONS),
  deadlines: z.array(DeadlineRecord),
  proposals: z.array(DisputeProposalRecord),
  max_dispute_amount: Naira.meta({ description: 'the most the seller may propose now' }),
  escalated_at: NullableTimestamp,
  escalated_by: z.enum(['buyer', 'seller', 'system']).nullable(),
  resolution: z.enum(['agreement', 'forfeit_buyer', 'forfeit_seller', 'verdict', 'canceled', 'declined_refund']).nullable().meta({
    description:
      'how the dispute ended: agreed amount, a silent party forfeiting, the dispute team, the seller withdrawing, or declined arbitration left undecided (everything back to the buyer)',
  }),
  verdict_seller_amount: Naira.nullable().meta({ description: "the dispute team's award to the seller" }),
  verdict_reason: z.string().nullable(),
  resolved_at: NullableTimestamp,
  evidence: z.array(DisputeEvidenceRecord),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const DisputeRecord = z.object(disputeFields).strict();

const { transaction: _t, ...milestoneWithoutTransaction } = MilestoneWithLogsRecord.shape;
export const DisputeWithPartiesRecord = z
  .object({
    ...disputeFields,
    buyer: PartyWithoutOrganisationRecord,
    seller: PartyWithoutOrganisationRecord,
    milestone: z.object({ ...milestoneWithoutTransaction, transaction: TransactionRecord }).strict(),
  })
  .strict();

export const BankAccountRecord = z
  .object({
    id: Id,
    wallet_id: Id,
    account_number: z.string(),
    account_name: z.string(),
    bank_code: z.string(),
    bank_name: z.string(),
    name_matches: z.boolean().nullable().meta({ description: "whether the bank's name for the account is the user's (null: saved before this was checked)" }),
    pgA_transfer_recipient: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();

export const BankAccountWithUserRecord = BankAccountRecord.extend({
  user: UserRecord,
}).strict();

export const BankRecord = z.object({ code: z.string(), name: z.string() }).strict();

export const NameEnquiryRecord = z
  .object({ account_number: z.string(), account_name: z.string(), bank_code: z.string(), bank_name: z.string() })
  .strict();

export const FileRecord = z
  .object({ id: Id, url: z.string(), content_type: z.string(), size: z.number().int(), sha256: z.string(), filename: z.string(), created_at: Timestamp })
  .strict();

export const ClientWithKeysRecord = z
  .object({
    id: Id,
    name: z.string(),
    mode: z.enum(['test', 'live']),
    public_key: z.string(),
    secret_key: z.string().nullable().meta({ description: 'shown once: only its hash is stored. null in an Idempotency-Key replay, which never shows it again' }),
    is_kyc_completed: z.boolean(),
    fee_basis_points: z.number().int(),
    fee_cap: Naira.nullable(),
    auto_payout: z.boolean(),
    created_at: Timestamp,
  })
  .strict();

export const UserListRecord = z.object({ users: z.array(UserRecord), pagination: Pagination }).strict();
export const TransactionListRecord = z.object({ transactions: z.array(TransactionListEntryRecord), pagination: Pagination }).strict();
export const DisputeListRecord = z.object({ disputes: z.array(DisputeRecord), pagination: Pagination }).strict();
export const BankAccountListRecord = z
  .object({ bank_accounts: z.array(BankAccountWithUserRecord), pagination: Pagination })
  .strict();

export type UserRecord = z.infer<typeof UserRecord>;
export type WalletRecord = z.infer<typeof WalletRecord>;
export type PartyRecord = z.infer<typeof PartyRecord>;
export type OrganisationRecord = z.infer<typeof OrganisationRecord>;
export type TransactionRecord = z.infer<typeof TransactionRecord>;
export type MilestoneRecord = z.infer<typeof MilestoneRecord>;
export type MilestoneWithLogsRecord = z.infer<typeof MilestoneWithLogsRecord>;
export type TransactionWithMilestonesRecord = z.infer<typeof TransactionWithMilestonesRecord>;
export type DisputeRecord = z.infer<typeof DisputeRecord>;
export type DisputeWithPartiesRecord = z.infer<typeof DisputeWithPartiesRecord>;
export type MilestoneDisputeSummaryRecord = z.infer<typeof MilestoneDisputeSummaryRecord>;
export type TransactionDetailRecord = z.infer<typeof TransactionDetailRecord>;
export type TransactionListEntryRecord = z.infer<typeof TransactionListEntryRecord>;
export type BankAccountRecord = z.infer<typeof BankAccountRecord>;
export type FileRecord = z.infer<typeof FileRecord>;

export const WalletEntryRecord = z
  .object({
    id: Id,
    transfer_id: Id,
    kind: z.string().meta({ description: 'wallet_funding, live_funding, milestone_funding, release, refund, dispute_settlement, payout (to a bank account) or payout_returned (a failed or reversed payout)' }),
    description: z.string(),
    amount: Naira.meta({ description: 'signed: positive credits the wallet, negative debits it' }),
    milestone_id: Id.nullable(),
    milestone_title: z.string().nullable().meta({ description: "the title of the milestone the movement belongs to; null when it belongs to none (money in, a withdrawal)" }),
    transaction_id: Id.nullable().meta({ description: "the transaction (deal) of that milestone; null when the movement belongs to none" }),
    transaction_title: z.string().nullable().meta({ description: "that transaction's title; null when the movement belongs to none" }),
    created_at: Timestamp,
  })
  .strict();
export const WalletHistoryRecord = z.object({ entries: z.array(WalletEntryRecord), pagination: Pagination }).strict();

export const LedgerIntegrityRecord = z
  .object({
    balanced: z.boolean(),
    ledger_sum_kobo: z.number().int(),
    entries: z.number().int(),
    unbalanced_transfers: z.array(Id),
    accounts_not_matching_entries: z.array(Id),
    negative_accounts: z.array(Id),
    payouts_in_flight_not_matching: z.array(Id).meta({ description: "clients whose payouts-in-flight account is not the sum of their PENDING and PROCESSING payouts" }),
  })
  .strict();

export const ClientRecord = ClientWithKeysRecord.omit({ secret_key: true }).strict();
export const ClientListRecord = z.object({ clients: z.array(ClientRecord), pagination: Pagination }).strict();

export const TestClockRecord = z
  .object({ now: Timestamp, offset_ms: z.number().int(), settled: z.number().int().optional(), payouts_paid: z.number().int().optional() })
  .strict();
export const OperatorDisputeListRecord = z
  .object({ disputes: z.array(DisputeRecord.extend({ client_id: Id, client_name: z.string() }).strict()), pagination: Pagination })
  .strict();
