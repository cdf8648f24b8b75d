import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, type AuditDetail } from '../../contracts/audit';
import { EMAIL_KINDS, EMAIL_STATUSES } from '../../contracts/emails';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const DASHBOARD_ROLES = ['operator', 'admin', 'viewer', 'customer', 'dispute_team'] as const;

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const kobo = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

export const clients = pgTable('clients', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  mode: text('mode', { enum: ['test', 'live'] }).notNull(),
  publicKey: text('public_key').notNull().unique(),
  isKycCompleted: boolean('is_kyc_completed').notNull(),
  feeBasisPoints: integer('fee_basis_points').notNull().default(100),
  feeCapKobo: kobo('fee_cap_kobo'),
  feeAccountId: uuid('fee_account_id').notNull(),
  externalAccountId: uuid('external_account_id').notNull(),
  /** Payouts sent and not yet paid or failed (docs/decisions.md §11): never below zero. */
  payoutsAccountId: uuid('payouts_account_id').notNull(),
  /** Every release to a seller with a saved bank account starts a payout of it (docs/decisions.md §11). */
  autoPayout: boolean('auto_payout').notNull().default(false),
  /** Sandbox test clock (docs/decisions.md §10): how far this client's time runs ahead of the wall clock. */
  clockOffsetMs: bigint('clock_offset_ms', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A client's secret keys (docs/decisions.md §2, §14): only their hashes. A roll adds a key and gives the older
 * ones an expiry; an expired key is refused. `expires_at` null: the key does not expire.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    keyHash: text('key_hash').notNull().unique(),
    last4: text('last4').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at'),
  },
  (t) => [index('api_keys_client_idx').on(t.clientId, t.createdAt)],
);

/** One balance per account; the CHECK is the last line of defence against a wallet or escrow below zero. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    kind: text('kind', { enum: ['wallet', 'escrow', 'platform_fees', 'external', 'payouts_in_flight'] }).notNull(),
    balanceKobo: kobo('balance_kobo').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('ledger_accounts_no_overdraft', sql`${t.kind} in ('platform_fees', 'external') or ${t.balanceKobo} >= 0`),
    // Balances travel as JavaScript numbers, exact only up to 2^53 - 1 kobo (about ₦90 trillion).
    check('ledger_accounts_exact_range', sql`${t.balanceKobo} between -9007199254740991 and 9007199254740991`),
  ],
);

export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    kind: text('kind').notNull(),
    milestoneId: uuid('milestone_id'),
    /** The payout whose money it moves. */
    payoutId: uuid('payout_id'),
    /** The card checkout whose payment it credits (docs/decisions.md §16). */
    checkoutId: uuid('checkout_id'),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_transfers_client_idx').on(t.clientId, t.createdAt), index('ledger_transfers_payout_idx').on(t.payoutId).where(sql`${t.payoutId} is not null`)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey(),
    transferId: uuid('transfer_id').notNull().references(() => ledgerTransfers.id),
    accountId: uuid('account_id').notNull().references(() => ledgerAccounts.id),
    amountKobo: kobo('amount_kobo').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.createdAt, t.id), index('ledger_entries_transfer_idx').on(t.transferId)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull().references(() => clients.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    userName: text('user_name').notNull().unique(),
    email: text('email').notNull(),
    emailLower: text('email_lower').notNull(),
    phone: text('phone'),
    isAccountVerified: boolean('is_account_verified').notNull().default(true),
    passwordReset: boolean('password_reset').notNull().default(false),
    role: text('role').notNull().default('USER'),
    referredById: uuid('referred_by_id'),
    referralCode: text('referral_code'),
    source: text('source').notNull().default('THIRD_PARTY'),
    apiEnabled: boolean('api_enabled').notNull().default(false),
    passwordCreated: boolean('password_created').notNull().default(false),
    lastLoggedInAt: ts('last_logged_in_at'),
    /** The ratings other parties gave this user (docs/decisions.md §13), summed where each is written. */
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    /** Set while an admin has deactivated this customer: no new transactions name them (their open ones run on). */
    deactivatedAt: ts('deactivated_at'),
    /** The integrator's own key-value pairs (docs/decisions.md §19): stored and returned, never interpreted. */
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_client_email_idx').on(t.clientId, t.emailLower),
    index('users_client_created_id_idx').on(t.clientId, t.createdAt, t.id),
  ],
);

/** A wallet's id is its ledger account's id. */
export const wallets = pgTable('wallets', {
  id: uuid('id').primaryKey().references(() => ledgerAccounts.id),
  clientId: uuid('client_id').notNull(),
  userId: uuid('user_id').notNull().unique().references(() => users.id),
  name: text('name').notNull(),
  accountReference: text('account_reference').notNull().unique(),
  provider: text('provider').notNull(),
  funderEmail: text('funder_email'),
  disbursementEmail: text('disbursement_email'),
  bvn: text('bvn'),
  /** The live funding account the provider opened for this wallet (docs/decisions.md §12), null until it has one. */
  providerAccount: jsonb('provider_account').$type<ProviderAccount>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const organisations = pgTable('organisations', {
  id: uuid('id').primaryKey(),
  clientId: uuid('client_id').notNull(),
  userId: uuid('user_id').notNull().unique().references(() => users.id),
  name: text('name').notNull(),
  walletId: uuid('wallet_id').notNull().references(() => wallets.id),
  pgACustomerCode: text('pga_customer_code'),
  accountKycType: text('account_kyc_type'),
  isKycCompleted: boolean('is_kyc_completed').notNull().default(false),
  isKycSubmitted: boolean('is_kyc_submitted').notNull().default(false),
  isKycApproved: boolean('is_kyc_approved').notNull().default(false),
  isKycDeclined: boolean('is_kyc_declined').notNull().default(false),
  kycDeclineReason: text('kyc_decline_reason'),
  kycCompletedAt: ts('kyc_completed_at'),
  createdBy: uuid('created_by'),
  kycApprovedBy: uuid('kyc_approved_by'),
  kycDeclinedBy: uuid('kyc_declined_by'),
  updatedBy: uuid('updated_by'),
  locationType: text('location_type').notNull().default('LOCAL'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const parties = pgTable('parties', {
  id: uuid('id').primaryKey(),
  clientId: uuid('client_id').notNull(),
  userId: uuid('user_id').notNull().unique().references(() => users.id),
  organisationId: uuid('organisation_id').notNull().references(() => organisations.id),
  role: text('role').notNull().default('SUPER ADMIN'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull().references(() => clients.id),
    title: text('title').notNull(),
    description: text('description').notNull(),
    currency: text('currency').notNull().default('NGN'),
    locationType: text('location_type').notNull().default('LOCAL'),
    category: text('category').notNull(),
    subCategory: text('sub_category').notNull(),
    transactionContractUrl: text('transaction_contract_url'),
    status: text('status').notNull(),
    transactionOriginator: text('transaction_originator').notNull().default('BUYER'),
    buyerPartyId: uuid('buyer_party_id').notNull().references(() => parties.id),
    sellerPartyId: uuid('seller_party_id').notNull().references(() => parties.id),
    source: text('source').notNull().default('api'),
    commissionPayer: text('commission_payer').notNull(),
    transactionAmountKobo: kobo('transaction_amount_kobo').notNull(),
    totalAmountFundedKobo: kobo('total_amount_funded_kobo').notNull().default(0),
    totalAmountRefundedKobo: kobo('total_amount_refunded_kobo').notNull().default(0),
    totalAmountDisbursedKobo: kobo('total_amount_disbursed_kobo').notNull().default(0),
    currentMilestoneId: uuid('current_milestone_id'),
    jobId: text('job_id'),
    declineReason: text('decline_reason'),
    isCompleted: boolean('is_completed').notNull().default(false),
    hasBuyerRated: boolean('has_buyer_rated').notNull().default(false),
    hasSellerRated: boolean('has_seller_rated').notNull().default(false),
    onLastMilestone: boolean('on_last_milestone').notNull().default(false),
    discountCode: text('discount_code'),
    declinedAt: ts('declined_at'),
    approvedAt: ts('approved_at'),
    /** When the transaction was canceled or terminated (docs/decisions.md §13). */
    dateCanceled: ts('date_canceled'),
    /** A party's cancellation request waiting for the other party's answer (docs/decisions.md §13). */
    cancellationRequest: jsonb('cancellation_request').$type<CancellationRequestJson>(),
    /** When the pending cancellation request lapses unanswered (docs/decisions.md §13); null without one. */
    cancellationResponseDueAt: ts('cancellation_response_due_at'),
    /** Who ended the transaction early (buyer or seller), and why. */
    endedBy: text('ended_by', { enum: ['buyer', 'seller'] }),
    endReason: text('end_reason'),
    /** The integrator's own key-value pairs (docs/decisions.md §19): stored and returned, never interpreted. */
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    /** The integrator's own id for this deal, unique per client (§19); null when none was given. */
    externalReference: text('external_reference'),
    /** The fee rate this transaction's milestones were priced at: the client's, or the create body's override (§19). */
    feeBasisPoints: integer('fee_basis_points').notNull(),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('transactions_client_created_id_idx').on(t.clientId, t.createdAt, t.id),
    // Decides between two concurrent creates with one reference (§19), and serves the ?external_reference= filter.
    uniqueIndex('transactions_client_external_reference_idx').on(t.clientId, t.externalReference),
    index('transactions_buyer_idx').on(t.buyerPartyId),
    index('transactions_seller_idx').on(t.sellerPartyId),
    // The deadline runner's scan each second: only transactions with a request waiting for an answer.
    index('transactions_awaiting_answer_idx').on(t.cancellationResponseDueAt).where(sql`cancellation_response_due_at is not null`),
  ],
);

export const milestones = pgTable(
  'milestones',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    transactionId: uuid('transaction_id').notNull().references(() => transactions.id),
    title: text('title').notNull(),
    description: text('description').notNull(),
    amountKobo: kobo('amount_kobo').notNull(),
    feeKobo: kobo('fee_kobo').notNull(),
    isMilestoneFunded: boolean('is_milestone_funded').notNull().default(false),
    position: integer('position_in_transaction').notNull(),
    isDelivered: boolean('is_delivered').notNull().default(false),
    isCompleted: boolean('is_completed').notNull().default(false),
    deliveryRejectionReason: text('delivery_rejection_reason'),
    isDeliveryRejected: boolean('is_delivery_rejected').notNull().default(false),
    isReturnProofSent: boolean('is_return_proof_sent').notNull().default(false),
    isReturnApproved: boolean('is_return_approved').notNull().default(false),
    isReturnRejected: boolean('is_return_rejected').notNull().default(false),
    dueDateType: text('due_date_type').notNull().default('DEADLINE_DATE'),
    dueDate: ts('due_date').notNull(),
    executionTimeline: text('execution_timeline'),
    status: text('status').notNull(),
    commissionPayer: text('commission_payer').notNull(),
    discountCode: text('discount_code'),
    inspectionDuration: integer('inspection_duration').notNull(),
    inspectionEndDate: ts('inspection_end_date'),
    returnDeadlineDate: ts('return_deadline_date'),
    /** 0-based index in `extensions` of the latest approved due-date extension, null before any (docs/decisions.md §13). */
    currentExtensionIndex: integer('current_extension_index'),
    /** The seller's due-date extension requests and the buyer's answers, oldest first. */
    extensions: jsonb('extensions').$type<ExtensionJson[]>().notNull().default([]),
    /** When the buyer's answer to the pending extension request is due (docs/decisions.md §13); null when none is pending. */
    extensionResponseDueAt: ts('extension_response_due_at'),
    /** After the seller rejects a return: when the service opens the dispute if no party has (issue #25); null otherwise. */
    disputeOpeningDueAt: ts('dispute_opening_due_at'),
    /** What the seller gave back of the escrow, fee share excluded (docs/decisions.md §17). */
    amountRefundedKobo: kobo('amount_refunded_kobo').notNull().default(0),
    /** What the seller was paid on completion: the price in full, or the release amount of an accepted partial acceptance (§17). */
    amountReleasedKobo: kobo('amount_released_kobo'),
    /** The buyer's latest partial acceptance and its answer (§17); null before any. */
    partialAcceptance: jsonb('partial_acceptance').$type<PartialAcceptanceJson>(),
    /** When the seller's answer to the pending partial acceptance is due (§17); null when none is pending. */
    partialAcceptanceResponseDueAt: ts('partial_acceptance_response_due_at'),
    rateUsed: integer('rate_used_basis_points').notNull(),
    proofsOfCompletion: jsonb('proofs_of_completion').$type<string[]>().notNull().default([]),
    proofsOfReturn: jsonb('proofs_of_return').$type<string[]>().notNull().default([]),
    /** The integrator's own key-value pairs (docs/decisions.md §19): stored and returned, never interpreted. */
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('milestones_transaction_position_idx').on(t.transactionId, t.position),
    // The deadline runner's scan each second: per client (each has its own clock), only the milestones whose deadline has passed,
    // not every milestone waiting on one, nor every milestone ever.
    index('milestones_inspection_due_idx').on(t.clientId, t.inspectionEndDate).where(sql`status = 'UNDER_INSPECTION'`),
    index('milestones_return_due_idx').on(t.clientId, t.returnDeadlineDate).where(sql`status = 'DELIVERY_RETURNED_AWAITING_APPROVAL'`),
    index('milestones_awaiting_extension_answer_idx').on(t.extensionResponseDueAt).where(sql`extension_response_due_at is not null`),
    index('milestones_awaiting_dispute_idx').on(t.disputeOpeningDueAt).where(sql`dispute_opening_due_at is not null`),
    index('milestones_awaiting_partial_acceptance_idx').on(t.clientId, t.partialAcceptanceResponseDueAt).where(sql`partial_acceptance_response_due_at is not null`),
  ],
);

/** A milestone escrow's id is its ledger account's id. */
export const milestoneEscrows = pgTable('milestone_escrows', {
  id: uuid('id').primaryKey().references(() => ledgerAccounts.id),
  milestoneId: uuid('milestone_id').notNull().unique().references(() => milestones.id),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const milestoneLogs = pgTable(
  'milestone_logs',
  {
    id: uuid('id').primaryKey(),
    milestoneId: uuid('milestone_id').notNull().references(() => milestones.id),
    logMessage: text('log_message').notNull(),
    actor: text('actor', { enum: ['buyer', 'seller', 'client', 'system', 'dispute_team'] }).notNull(),
    isAutomatic: boolean('is_automatic').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('milestone_logs_milestone_idx').on(t.milestoneId, t.createdAt)],
);

export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    disputeCode: text('dispute_code').notNull().unique(),
    description: text('description').notNull(),
    buyerPartyId: uuid('buyer_party_id').notNull().references(() => parties.id),
    sellerPartyId: uuid('seller_party_id').notNull().references(() => parties.id),
    milestoneId: uuid('milestone_id').notNull().unique().references(() => milestones.id),
    status: text('status').notNull(),
    disputeAmountStatus: text('dispute_amount_status').notNull(),
    disputeAmountKobo: kobo('dispute_amount_kobo').notNull().default(0),
    isBuyerEvidenceSubmitted: boolean('is_buyer_evidence_submitted').notNull().default(false),
    isSellerEvidenceSubmitted: boolean('is_seller_evidence_submitted').notNull().default(false),
    intraPartyMediationEndDate: ts('intra_party_mediation_end_date').notNull(),
    evidenceSubmissionEndDate: ts('evidence_submission_end_date'),
    /** The parties that have extended the evidence window, each once (docs/decisions.md §13). */
    evidenceExtendedBy: jsonb('evidence_extended_by').$type<Array<'buyer' | 'seller'>>().notNull().default([]),
    /** The amount the buyer offered in mediation (dispute_amount_status COUNTER_OFFERED). */
    counterOfferAmountKobo: kobo('counter_offer_amount_kobo'),
    /** Who opened it: a party, or the service when the seller rejected a return and nobody did (issue #25). */
    openedBy: text('opened_by').$type<'buyer' | 'seller' | 'system'>().notNull().default('seller'),
    /** While ARBITRATION_DECLINED: when the held funds go back to the buyer unless the dispute team decides first. */
    declinedRefundDueAt: ts('declined_refund_due_at'),
    cancellationAgreementDetails: text('cancellation_agreement_details'),
    canceledBy: text('canceled_by'),
    escalatedAt: ts('escalated_at'),
    escalatedBy: text('escalated_by'),
    /** How it ended: agreement, forfeit_buyer, forfeit_seller, verdict, canceled (docs/decisions.md §6). */
    resolution: text('resolution'),
    verdictSellerAmountKobo: kobo('verdict_seller_amount_kobo'),
    verdictReason: text('verdict_reason'),
    resolvedAt: ts('resolved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('disputes_client_created_idx').on(t.clientId, t.createdAt),
    index('disputes_awaiting_deadline_idx').on(t.status).where(sql`status in ('INTRA_PARTY_MEDIATION', 'EVIDENCE_SUBMISSION')`),
    index('disputes_awaiting_declined_refund_idx').on(t.declinedRefundDueAt).where(sql`declined_refund_due_at is not null`),
  ],
);

/** Mediation proposals as a history (docs/decisions.md §10). */
export const disputeProposals = pgTable(
  'dispute_proposals',
  {
    id: uuid('id').primaryKey(),
    disputeId: uuid('dispute_id').notNull().references(() => disputes.id),
    amountKobo: kobo('amount_kobo').notNull(),
    proposedBy: text('proposed_by', { enum: ['seller', 'buyer'] }).notNull(),
    status: text('status', { enum: ['SUBMITTED', 'REJECTED', 'APPROVED', 'SUPERSEDED'] }).notNull(),
    rejectionReason: text('rejection_reason'),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [index('dispute_proposals_dispute_idx').on(t.disputeId, t.createdAt)],
);

/** Each party's rating of the other after a completed transaction, once each (docs/decisions.md §13). */
export const ratings = pgTable(
  'ratings',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    transactionId: uuid('transaction_id').notNull().references(() => transactions.id),
    raterRole: text('rater_role', { enum: ['buyer', 'seller'] }).notNull(),
    /** The user rated: the other party of the transaction. */
    ratedUserId: uuid('rated_user_id').notNull().references(() => users.id),
    score: integer('score').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ratings_transaction_rater_idx').on(t.transactionId, t.raterRole), index('ratings_rated_user_idx').on(t.ratedUserId)],
);

export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    userId: uuid('user_id').notNull().references(() => users.id),
    walletId: uuid('wallet_id').notNull().references(() => wallets.id),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    bankCode: text('bank_code').notNull(),
    pgATransferRecipient: text('pga_transfer_recipient'),
    /** Whether the bank's name for the account matched the user's name when it was saved; null for accounts saved before this was kept. */
    nameMatches: boolean('name_matches'),
    /** Removed by an admin: kept for the payouts that name it, never paid to again. */
    removedAt: ts('removed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('bank_accounts_wallet_account_idx').on(t.walletId, t.bankCode, t.accountNumber),
    index('bank_accounts_client_created_idx').on(t.clientId, t.createdAt),
  ],
);

export const files = pgTable('files', {
  id: uuid('id').primaryKey(),
  clientId: uuid('client_id').notNull(),
  filename: text('filename').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  content: bytea('content').notNull(),
  createdAt: createdAt(),
});

export type PartialAcceptanceJson = {
  release_amount_kobo: number;
  refund_amount_kobo: number;
  reason: string;
  status: 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'WITHDRAWN';
  proposed_at: string;
  answered_at: string | null;
  decline_reason: string | null;
};
export type ExtensionJson = { due_date: string; reason: string; status: 'PENDING' | 'APPROVED' | 'DECLINED'; requested_at: string; answered_at: string | null };
export type CancellationRequestJson = { requested_by: 'buyer' | 'seller'; reason: string; requested_at: string };
export type ProviderAccount = { provider: 'paystack'; account_number: string; account_name: string; bank_name: string; customer_code: string };

/**
 * Money out (docs/decisions.md §11). The bank account's details are copied as they were when the payout was made,
 * so the record stays true if the account is removed later. `sent_at`: when a send to the provider was
 * first tried, so a server that died mid-send asks the provider before sending again.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id').notNull().references(() => users.id),
    walletId: uuid('wallet_id').notNull().references(() => wallets.id),
    bankAccountId: uuid('bank_account_id').notNull().references(() => bankAccounts.id),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    bankCode: text('bank_code').notNull(),
    amountKobo: kobo('amount_kobo').notNull(),
    status: text('status', { enum: ['PENDING', 'PROCESSING', 'PAID', 'FAILED', 'REVERSED'] }).notNull(),
    failureReason: text('failure_reason'),
    provider: text('provider', { enum: ['sandbox', 'paystack'] }).notNull(),
    providerReference: text('provider_reference'),
    /** The release it pays out, when auto_payout started it. */
    milestoneId: uuid('milestone_id'),
    sentAt: ts('sent_at'),
    /** Sandbox: when it is paid, on the client's clock. Paystack: when to ask the provider next. */
    dueAt: ts('due_at'),
    /** The integrator's own key-value pairs (docs/decisions.md §19): stored and returned, never interpreted. */
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paidAt: ts('paid_at'),
    failedAt: ts('failed_at'),
    reversedAt: ts('reversed_at'),
  },
  (t) => [
    index('payouts_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('payouts_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('payouts_due_idx').on(t.dueAt).where(sql`${t.status} in ('PENDING', 'PROCESSING')`),
  ],
);

/**
 * A card or bank-app payment page for one purpose (docs/decisions.md §16): fund a milestone, or add money to the
 * buyer's wallet. `reference` is ours and is what the provider receives; a reference credits the wallet once.
 */
export const checkouts = pgTable(
  'checkouts',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id').notNull().references(() => users.id),
    walletId: uuid('wallet_id').notNull().references(() => wallets.id),
    purpose: text('purpose', { enum: ['milestone', 'wallet'] }).notNull(),
    milestoneId: uuid('milestone_id').references(() => milestones.id),
    transactionId: uuid('transaction_id').references(() => transactions.id),
    amountKobo: kobo('amount_kobo').notNull(),
    status: text('status', { enum: ['PENDING', 'PAID', 'FAILED', 'EXPIRED'] }).notNull(),
    authorizationUrl: text('authorization_url').notNull(),
    callbackUrl: text('callback_url'),
    /** Paid: whether the milestone was funded from it; null until paid. */
    applied: boolean('applied'),
    notAppliedReason: text('not_applied_reason'),
    channel: text('channel'),
    failureReason: text('failure_reason'),
    provider: text('provider', { enum: ['sandbox', 'paystack'] }).notNull(),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    expiresAt: ts('expires_at').notNull(),
    /** Paystack: when to ask the provider about a checkout still PENDING. */
    verifyDueAt: ts('verify_due_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paidAt: ts('paid_at'),
    failedAt: ts('failed_at'),
    expiredAt: ts('expired_at'),
  },
  (t) => [
    check('checkouts_one_purpose', sql`(${t.purpose} = 'milestone') = (${t.milestoneId} is not null)`),
    index('checkouts_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('checkouts_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('checkouts_pending_expiry_idx').on(t.clientId, t.expiresAt).where(sql`${t.status} = 'PENDING'`),
    index('checkouts_verify_due_idx').on(t.verifyDueAt).where(sql`${t.status} = 'PENDING' and ${t.verifyDueAt} is not null`),
  ],
);

/**
 * What a provider told us (a webhook or an answer to a query), once per provider event: a repeated
 * webhook finds its row and changes nothing. Reconciliation sets these against the ledger.
 */
export const providerEvents = pgTable(
  'provider_events',
  {
    id: uuid('id').primaryKey(),
    provider: text('provider', { enum: ['sandbox', 'paystack'] }).notNull(),
    /** The provider's event and the reference it is about: one row per outcome (transfer.success:PO_…). */
    eventKey: text('event_key').notNull(),
    kind: text('kind', { enum: ['payout_paid', 'payout_failed', 'payout_reversed', 'funding', 'checkout_paid'] }).notNull(),
    reference: text('reference').notNull(),
    amountKobo: kobo('amount_kobo'),
    clientId: uuid('client_id'),
    payoutId: uuid('payout_id'),
    walletId: uuid('wallet_id'),
    checkoutId: uuid('checkout_id'),
    /** The ledger transfer it caused; null when it matched nothing of ours (a reconciliation mismatch). */
    ledgerTransferId: uuid('ledger_transfer_id'),
    data: jsonb('data').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_events_key_idx').on(t.provider, t.eventKey), index('provider_events_received_idx').on(t.receivedAt)],
);

/** Small facts the app keeps about itself: whether the demo was seeded, the dashboard's own API key. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * People who sign in to the dashboard. An admin or a viewer (an admin's read-only colleague) is linked to
 * an integrating client; a customer to one escrow user of that client (the id the API accepts as
 * buyer_id/seller_id). An operator runs the service and belongs to no client; a dispute-team member
 * serves every client (client_id null) or one (the demo's). Emails are stored lower-case and unique
 * across the dashboard, since the email alone names the account at sign-in.
 */
export const dashboardAccounts = pgTable(
  'dashboard_accounts',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: DASHBOARD_ROLES }).notNull(),
    clientId: uuid('client_id'),
    escrowUserId: uuid('escrow_user_id'),
    /** scrypt$N$r$p$salt$hash; null until the invite is accepted. */
    passwordHash: text('password_hash'),
    lastSignedInAt: ts('last_signed_in_at'),
    /** The newest event (GET /v1/events) this person has seen in the notification bell; null: none yet. */
    notificationsReadThrough: uuid('notifications_read_through'),
    /** Set when an admin removes a team member: the account can no longer sign in, and its sessions end. */
    removedAt: ts('removed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dashboard_accounts_email_idx').on(t.email),
    uniqueIndex('dashboard_accounts_escrow_user_idx').on(t.clientId, t.escrowUserId),
    check(
      'dashboard_accounts_role_link',
      sql`(${t.role} in ('admin', 'viewer') and ${t.clientId} is not null and ${t.escrowUserId} is null) or (${t.role} = 'customer' and ${t.clientId} is not null and ${t.escrowUserId} is not null) or (${t.role} = 'dispute_team' and ${t.escrowUserId} is null) or (${t.role} = 'operator' and ${t.clientId} is null and ${t.escrowUserId} is null)`,
    ),
  ],
);

/**
 * Each client's secret key as the dashboard holds it, so that client's admins act with that key and no
 * other (docs/decisions.md §14). Sealed with AES-256-GCM (crypto/secret-box.ts); never shown, never logged.
 */
export const dashboardClientKeys = pgTable('dashboard_client_keys', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id),
  secretKey: text('secret_key').notNull(),
  updatedAt: updatedAt(),
});

/** One-time links to set a password; only a hash of the token is kept. */
export const dashboardInvites = pgTable(
  'dashboard_invites',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => dashboardAccounts.id),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: uuid('created_by').references(() => dashboardAccounts.id),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('dashboard_invites_account_idx').on(t.accountId)],
);

/**
 * Completed requests by Idempotency-Key (docs/decisions.md §10), written in the same database transaction as
 * their effect: a crash either loses both or keeps both.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scopeId: uuid('scope_id').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: text('response_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scopeId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Evidence a party submits during EVIDENCE_SUBMISSION: text plus stored files (each kept with its sha256). */
export const disputeEvidence = pgTable(
  'dispute_evidence',
  {
    id: uuid('id').primaryKey(),
    disputeId: uuid('dispute_id').notNull().references(() => disputes.id),
    party: text('party', { enum: ['buyer', 'seller'] }).notNull(),
    text: text('text').notNull(),
    fileIds: jsonb('file_ids').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index('dispute_evidence_dispute_idx').on(t.disputeId, t.createdAt)],
);

/**
 * The outbox (docs/decisions.md §9): every state change writes its event in the same database transaction.
 * `sequence` counts a transaction's events from 1 so a receiver can order them (docs/decisions.md §10).
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    type: text('type').notNull(),
    transactionId: uuid('transaction_id'),
    sequence: integer('sequence'),
    milestoneId: uuid('milestone_id'),
    disputeId: uuid('dispute_id'),
    data: jsonb('data').notNull(),
    /** Set on events that must be recorded once whoever writes them (a deadline's, per instant): the unique index is the last word. */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('events_transaction_sequence_idx').on(t.transactionId, t.sequence),
    uniqueIndex('events_dedupe_key_idx').on(t.dedupeKey).where(sql`dedupe_key is not null`),
    // The list's order (time, a transaction's sequence, id): its pages and cursors read off this index.
    index('events_client_position_idx').on(t.clientId, t.createdAt, sql`coalesce(${t.sequence}, 0)`, t.id),
  ],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    secret: text('secret').notNull(),
    /** During rotation deliveries carry signatures by both secrets until this one expires. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_client_idx').on(t.clientId)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id').notNull(),
    endpointId: uuid('endpoint_id').notNull().references(() => webhookEndpoints.id),
    eventId: uuid('event_id').notNull().references(() => events.id),
    /** The event's transaction and sequence, copied: the dispatcher keeps each transaction's order reading this table alone. */
    transactionId: uuid('transaction_id'),
    sequence: integer('sequence'),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastAttemptAt: ts('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
    /** Queued by POST /v1/webhooks/{id}/replay: while one is pending, the endpoint's replay is running. */
    replay: boolean('replay').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_replay_idx').on(t.endpointId).where(sql`status = 'pending' and replay`),
    // The dispatcher's claim: never-tried deliveries oldest first, due retries soonest first, and each transaction's queue.
    index('webhook_deliveries_fresh_idx').on(t.createdAt, t.id).where(sql`status = 'pending' and attempts = 0`),
    index('webhook_deliveries_retry_idx').on(t.nextAttemptAt, t.id).where(sql`status = 'pending' and attempts > 0`),
    index('webhook_deliveries_queue_idx').on(t.endpointId, t.transactionId, t.sequence).where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);

/**
 * Rate-limit and sign-in-throttle counters shared by every process and server on this database, in the
 * shape rate-limiter-flexible's RateLimiterDrizzle reads and writes (http/rate-limit.ts). UNLOGGED in
 * its migration: counters are written on every request and are worth nothing after a crash.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: ts('expire'),
});

/** An integrating client as stored. */
export type ClientRow = typeof clients.$inferSelect;

/**
 * Mail to customers and dashboard accounts (docs/decisions.md §15), written in the same database transaction as
 * what causes it and sent by the email runner (email/sender.ts). `dedupe_key` makes each email once: an
 * event's per recipient, a reminder's per deadline instant and recipient. `sending` is claimed and
 * committed before the SMTP conversation, so a crash mid-send leaves it there to become `unknown`, never
 * sent again without an admin asking. `kept`: written while no SMTP_URL was set, shown to admins only.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey(),
    /** Null for the service's own staff (an operator's or the dispute team's invitation). */
    clientId: uuid('client_id'),
    /** The event that caused it; null for invitations and reminders. */
    eventId: uuid('event_id'),
    kind: text('kind', { enum: EMAIL_KINDS }).notNull(),
    recipientEmail: text('recipient_email').notNull(),
    recipientName: text('recipient_name').notNull(),
    /** Stored as written for an email whose words are fixed when it is queued (an invitation); null for one rendered from `facts`. */
    subject: text('subject'),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    /** What a templated email says, the kind naming its template (email/render.ts): rendered when it is sent or shown. */
    facts: jsonb('facts').$type<Record<string, unknown>>(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    status: text('status', { enum: EMAIL_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** While pending: when it is tried (again); while sending: when the sender's lease runs out. */
    nextAttemptAt: ts('next_attempt_at'),
    lastAttemptAt: ts('last_attempt_at'),
    lastError: text('last_error'),
    smtpMessageId: text('smtp_message_id'),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The sender's scan each second: only rows waiting to be sent or being sent.
    index('email_outbox_due_idx').on(t.nextAttemptAt).where(sql`status in ('pending', 'sending')`),
    index('email_outbox_client_created_idx').on(t.clientId, t.createdAt, t.id),
    check('email_outbox_content', sql`${t.facts} is not null or (${t.subject} is not null and ${t.textBody} is not null and ${t.htmlBody} is not null)`),
  ],
);
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;

/**
 * Every staff action (docs/decisions.md §14): who (copied as they were then, so a row still reads the same after
 * the account changes), what, on what, when and from which address. `client_id` is the client the action
 * concerns, null for the service's own staff acting on no single client. Written by the dashboard once
 * the change has succeeded; never updated. No foreign keys: the log outlives what it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id'),
    actorAccountId: uuid('actor_account_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    actorRole: text('actor_role', { enum: DASHBOARD_ROLES }).notNull(),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<AuditDetail>().notNull().default({}),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // A client's admins read their own rows, newest first; the operator reads every client's.
    index('audit_log_client_created_idx').on(t.clientId, t.createdAt.desc(), t.id.desc()),
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);
export type AuditLogRow = typeof auditLog.$inferSelect;

/**
 * How many rows each list holds, kept exact as rows come and go (issue #28): a list's `total` is read here
 * instead of counted, so it costs the same at a million rows as at ten. `scope` is whose list (a client,
 * a wallet's account, an endpoint); `facet` a filter it is kept for ('' for none, else `name=value`
 * pairs joined by `&` in name order, as the migration's facet functions spell them).
 *
 * The table triggers never touch these rows: each statement that adds, removes or moves rows appends its
 * net change to `list_count_changes` (inserts only, so writers never wait on one another), and the
 * background worker folds those into `list_counts` every second. A total is the sum of both.
 */
export const listCounts = pgTable(
  'list_counts',
  {
    list: text('list').notNull(),
    scope: uuid('scope').notNull(),
    facet: text('facet').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.list, t.scope, t.facet] })],
);

export const listCountChanges = pgTable(
  'list_count_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    list: text('list').notNull(),
    scope: uuid('scope').notNull(),
    facet: text('facet').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [index('list_count_changes_key_idx').on(t.list, t.scope, t.facet)],
);
