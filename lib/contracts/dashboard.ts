/**
 * Form inputs of the dashboard's server actions. Each one is the API's own request schema with the acting
 * party's id taken out (the server derives buyer_id/seller_id from the session, never from the form) and
 * the record id and the form's Idempotency-Key put in. Shared by the forms (zodResolver) and the actions.
 */
import { z } from 'zod';
import { SaveBankAccountBody, ValidateBankAccountBody } from './banks';
import { AmountFilterParams, Id, ListFilterParams, PlainText, PositiveAmount, ShortText } from './common';
import { AddDisputeAmountBody, CounterOfferBody, CreateDisputeBody, RejectDisputeAmountBody } from './disputes';
import { DeclinePartialAcceptanceBody, DeliverBody, ProposePartialAcceptanceBody, RefundMilestoneBody, RejectDeliveryBody } from './milestones';
import { MIN_PASSWORD_LENGTH, type ProofTokens } from './dashboard-plain';
import { RollKeyBody, type ApiKeyListRecord, type RolledKeyRecord } from './keys';
import type * as R from './records';
import { CreateTransactionBody, MilestoneInput } from './transactions';
import { CreateUserBody, UpdateUserFields } from './users';
import { FundWalletBody } from './wallets';

export type FieldError = { field: string; message: string };
/** What every server action answers: the API's message, for the toast. */
/** `sessionEnded`: refused because the person is signed out; the page asks them to sign in again over it. */
export type ActionResult<T = undefined> = { ok: boolean; message: string; errors?: FieldError[]; data?: T; sessionEnded?: boolean };

/** One key per user intent: made when the form opens, reused by a double submit. */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9_-]{16,100}$/, 'must be 16 to 100 letters, digits, _ or -');

const intent = { idempotency_key: IdempotencyKey };

export { fileIdOfProof, MIN_PASSWORD_LENGTH } from './dashboard-plain';
export const SignInInput = z.object({
  email: z.email({ message: 'Enter the email address you were invited with' }).max(254),
  password: z.string().min(1, 'Enter your password').max(200),
});
export const AcceptInviteInput = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This invite link is not valid'),
    password: z.string().min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`).max(200, 'Use at most 200 characters'),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ' });

// Milestones
export const MilestoneIntentInput = z.object({ milestone_id: Id, ...intent });
/** Cancel or terminate a transaction, or answer a cancellation request (docs/decisions.md §13); who acts comes from the session. */
export const EndTransactionInput = z.object({ transaction_id: Id, reason: ShortText(2000), ...intent });
export const RateInput = z.object({
  transaction_id: Id,
  score: z.coerce.number().int('choose 1 to 5 stars').min(1, 'choose 1 to 5 stars').max(5, 'choose 1 to 5 stars'),
  comment: PlainText().trim().max(2000, 'is at most 2000 characters').optional(),
  ...intent,
});
export const AnswerCancellationInput = z.object({ transaction_id: Id, answer: z.enum(['approve', 'decline']), ...intent });
/** The seller's request for a later due date (a calendar day, as the date picker gives it), and the buyer's answer. */
export const RequestExtensionInput = z.object({ milestone_id: Id, due_day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date'), reason: ShortText(2000), ...intent });
export const AnswerExtensionInput = z.object({ milestone_id: Id, answer: z.enum(['approve', 'decline']), ...intent });
export const DeliverInput = DeliverBody.omit({ seller_id: true }).extend({ milestone_id: Id, ...intent });
export const RejectDeliveryInput = RejectDeliveryBody.omit({ buyer_id: true }).extend({ milestone_id: Id, ...intent });
export const OpenDisputeInput = CreateDisputeBody.pick({ description: true, milestone_id: true }).extend(intent);
/** Refunds and partial acceptance (docs/decisions.md §17): the seller's refund, the buyer's proposal, the seller's decline. */
export const RefundMilestoneInput = RefundMilestoneBody.omit({ seller_id: true }).extend({ milestone_id: Id, ...intent });
export const ProposePartialAcceptanceInput = ProposePartialAcceptanceBody.omit({ buyer_id: true }).extend({ milestone_id: Id, ...intent });
export const DeclinePartialAcceptanceInput = DeclinePartialAcceptanceBody.omit({ seller_id: true }).extend({ milestone_id: Id, ...intent });

// Disputes
export const ProposeAmountInput = AddDisputeAmountBody.omit({ seller_id: true }).extend({ dispute_id: Id, ...intent });
export const CounterOfferInput = CounterOfferBody.omit({ buyer_id: true }).extend({ dispute_id: Id, ...intent });
export const DisputeIntentInput = z.object({ dispute_id: Id, ...intent });
export const RejectAmountInput = RejectDisputeAmountBody.omit({ buyer_id: true }).extend({ dispute_id: Id, ...intent });

// Admin
export const CreateCustomerInput = z.object({ user: CreateUserBody, invite: z.boolean(), ...intent });
export const InviteCustomerInput = z.object({ user_id: Id });
export const EditCustomerInput = UpdateUserFields.pick({ first_name: true, last_name: true, phone: true }).required({ first_name: true, last_name: true }).extend({ user_id: Id, ...intent });
export const CustomerActiveInput = z.object({ user_id: Id, active: z.boolean(), ...intent });
export const FundWalletInput = FundWalletBody.extend(intent);
export const RollKeyInput = RollKeyBody.extend(intent);
export const LookupAccountInput = ValidateBankAccountBody;
/**
 * accept_name_mismatch: the person saving has seen both names and says the account is the customer's although
 * the bank's name for it is not the customer's. Without it, the action refuses an account whose names differ.
 */
export const SaveBankAccountInput = SaveBankAccountBody.extend({ accept_name_mismatch: z.boolean().optional(), ...intent });

/** A date picker gives a calendar day; the API wants a date-time (the end of that day, Lagos time). */
export const DueDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date');
/**
 * A due day that is over (its end in Lagos is past) is refused before the API is asked; the API refuses it
 * too, by the client's own clock (a sandbox's test clock may run ahead of this one).
 */
const FutureDueDay = DueDay.refine((day) => !(new Date(dueDayToIso(day)).getTime() <= Date.now()), 'is in the past');
export const CreateTransactionInput = CreateTransactionBody.extend({
  milestones: z
    .array(MilestoneInput.extend({ due_date: FutureDueDay, amount: PositiveAmount }))
    .min(1, 'needs at least one milestone')
    .max(50, 'at most 50 milestones'),
  ...intent,
});
export function dueDayToIso(day: string): string {
  return `${day}T23:59:59.000+01:00`;
}

export const TransactionFilters = z.object({
  page: z.coerce.number().int().min(1).default(1),
  status: PlainText().max(60).optional(),
  user_id: Id.optional(),
  ...ListFilterParams,
  ...AmountFilterParams,
});
export type TransactionFilters = z.infer<typeof TransactionFilters>;

/** The customers list's filters, as its data routes read them from their URL. */
export const CustomerFilters = z.object({
  page: z.coerce.number().int().min(1).default(1),
  ...ListFilterParams,
});
export type CustomerFilters = z.infer<typeof CustomerFilters>;

export type SignInInput = z.infer<typeof SignInInput>;
export type AcceptInviteInput = z.infer<typeof AcceptInviteInput>;
export type DeliverInput = z.input<typeof DeliverInput>;
export type RejectDeliveryInput = z.input<typeof RejectDeliveryInput>;
export type OpenDisputeInput = z.infer<typeof OpenDisputeInput>;
export type ProposeAmountInput = z.infer<typeof ProposeAmountInput>;
export type RejectAmountInput = z.infer<typeof RejectAmountInput>;
export type CreateCustomerInput = z.input<typeof CreateCustomerInput>;
export type FundWalletInput = z.infer<typeof FundWalletInput>;
export type SaveBankAccountInput = z.infer<typeof SaveBankAccountInput>;
export type CreateTransactionInput = z.input<typeof CreateTransactionInput>;

// Response shapes the dashboard renders (types only: nothing here reaches the bundle at run time).
export type UserList = z.infer<typeof R.UserListRecord>;
export type ApiKeyList = z.infer<typeof ApiKeyListRecord>;
export type RolledKey = z.infer<typeof RolledKeyRecord>;
/** The API keys page: the API's list, and whether the dashboard's own key comes from ESCROW_API_KEY (then it cannot roll it). */
export type KeysView = ApiKeyList & { fromEnvironment: boolean };
export type CreatedUser = z.infer<typeof R.CreatedUserRecord>;
export type TransactionList = z.infer<typeof R.TransactionListRecord>;
export type TransactionListItem = z.infer<typeof R.TransactionListItemRecord>;
export type Transaction = R.TransactionWithMilestonesRecord;
export type MilestoneInTransaction = z.infer<typeof R.MilestoneInTransactionRecord>;
export type Milestone = R.MilestoneWithLogsRecord;
export type MilestoneLog = z.infer<typeof R.MilestoneLogRecord>;
export type Deadline = z.infer<typeof R.DeadlineRecord>;
export type Dispute = R.DisputeWithPartiesRecord;
export type DisputeSummary = R.DisputeRecord;
export type DisputeProposal = z.infer<typeof R.DisputeProposalRecord>;
export type Wallet = z.infer<typeof R.WalletWithOwnerRecord>;
export type WalletHistory = z.infer<typeof R.WalletHistoryRecord>;
export type WalletEntry = z.infer<typeof R.WalletEntryRecord>;
export type Bank = z.infer<typeof R.BankRecord>;
export type NameEnquiry = z.infer<typeof R.NameEnquiryRecord>;
export type BankAccountList = z.infer<typeof R.BankAccountListRecord>;
export type User = R.UserRecord;
export type Pagination = UserList['pagination'];

/** Who the signed-in person is on a transaction; decides which of allowed_actions applies. */
export type Viewer = 'buyer' | 'seller' | 'admin';

// What the dashboard's data routes answer (the API's records, arranged for one page).
export type TransactionView = {
  transaction: Transaction;
  viewer: Viewer;
  /** milestone id → its log, oldest first */
  logs: Record<string, MilestoneLog[]>;
  /** milestone id → the id of its dispute, for milestones that went to dispute */
  disputes: Record<string, string>;
  /** milestone id → what its settled dispute paid the seller (before the seller's fee share), for the fee charged */
  settlements: Record<string, number>;
  /** admins and the buyer: the buyer's wallet balance, to fund from */
  buyerBalance?: number;
  /** signed links to the milestones' proof files for this viewer (lib/server/dashboard/proof-links.ts) */
  proofTokens: ProofTokens;
};
/**
 * A buyer back from the payment page (`?reference=CO_…`, docs/decisions.md §16): the checkout as the API reads it,
 * or `missing` when the reference is not one of this buyer's checkouts for this transaction.
 */
export type CheckoutOutcome =
  | { kind: 'missing' }
  | { kind: 'found'; status: 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED'; amount: number; applied: boolean | null; notAppliedReason: string | null; failureReason: string | null; milestoneTitle: string | null };
export type MyTransactionItem = {
  transaction: TransactionListItem;
  role: 'buyer' | 'seller';
  /** the steps I owe now (from allowed_actions of the transaction, its milestones and open disputes) */
  awaiting: string[];
  /** the soonest deadline among them, and the page where that step is taken */
  dueAt: string | null;
  href: string;
  currentMilestone?: { title: string; status: string };
};
export type MyTransactionsView = { items: MyTransactionItem[]; pagination: Pagination };
/** `proofTokens`: signed links to the evidence files for this viewer. */
export type DisputeView = { dispute: Dispute; viewer: Viewer; transactionId: string; proofTokens: ProofTokens };
export type CustomerRow = { user: User; access: 'active' | 'invited' | 'none' };
export type CustomersView = { customers: CustomerRow[]; pagination: Pagination };
export type WalletView = { wallet: Wallet; history: WalletHistory };
