import { z } from 'zod';
import { includeParam } from './include';
import { STATEMENT_LINE_KINDS } from '../escrow/statements';
import { Id, IdRef, IsoInstant, LagosDayParam, OptionalPaging, PositiveAmount, Timestamp } from './common';
import { PayoutListRecord } from './payouts';
import { BankAccountListRecord, UserRecord, WalletHistoryRecord, WalletWithOwnerRecord } from './records';

export const FundWalletBody = z.strictObject({ user_id: IdRef, amount: PositiveAmount });
export type FundWalletBody = z.infer<typeof FundWalletBody>;

export const WALLET_INCLUDES = ['history', 'payouts', 'bank_accounts', 'user'] as const;
export type WalletInclude = (typeof WALLET_INCLUDES)[number];

/** GET /v1/wallets/{user_id}: what a wallet page shows besides the balance, in the same answer (comma-separated). */
export const GetWalletQuery = z.object({
  include: includeParam(
    WALLET_INCLUDES,
    "what the wallet carries besides its balance: history, the first page of its ledger entries; payouts, the user's first page of payouts; bank_accounts, the user's first page of saved accounts; user, the wallet's owner (each as its own operation answers it by default: page 1, 20 per page, newest first)",
  ),
});
export type GetWalletQuery = z.infer<typeof GetWalletQuery>;

export const WalletDetailRecord = WalletWithOwnerRecord.extend({
  history: WalletHistoryRecord.optional().meta({ description: 'with include=history: as GET /v1/wallets/{user_id}/history answers page 1' }),
  payouts: PayoutListRecord.optional().meta({ description: 'with include=payouts: as GET /v1/payouts?user_id= answers page 1' }),
  bank_accounts: BankAccountListRecord.optional().meta({ description: 'with include=bank_accounts: as GET /v1/wallets/banks/list?user_id= answers page 1' }),
  user: UserRecord.optional().meta({ description: 'with include=user: as GET /v1/users/{id} answers' }),
}).strict();

export const WalletHistoryQuery = z.object({ after: OptionalPaging.after, page: OptionalPaging.page, limit: OptionalPaging.limit });
export type WalletHistoryQuery = z.infer<typeof WalletHistoryQuery>;

const STATEMENT_BOUND_MESSAGE = 'must be a date YYYY-MM-DD (a Lagos day) or an ISO 8601 date-time such as 2026-11-25T00:00:00Z';
const isStatementBound = (value: string) => LagosDayParam.safeParse(value).success || IsoInstant().safeParse(value).success;
const StatementBound = z.string().max(35, 'is at most 35 characters').refine(isStatementBound, STATEMENT_BOUND_MESSAGE);

/** A statement's period (docs/decisions.md §18): each end defaults to the current Lagos month's; `from` after `to` is refused by the service. */
export const StatementQuery = z.object({
  from: StatementBound.optional().meta({ description: 'start of the period: a Lagos day (from its start) or a date-time (included)', example: '2026-11-01' }),
  to: StatementBound.optional().meta({ description: 'end of the period: a Lagos day (to its end, the day included) or a date-time (excluded)', example: '2026-11-30' }),
});
export type StatementQuery = z.infer<typeof StatementQuery>;

const Naira = z.number().meta({ description: 'naira' });
const SignedNaira = z.number().meta({ description: 'naira: money in positive, money out negative' });

export const StatementLineRecord = z
  .object({
    at: Timestamp,
    kind: z.enum(STATEMENT_LINE_KINDS),
    amount: SignedNaira,
    balance_after: Naira,
    description: z.string(),
    transaction_id: Id.nullable(),
    milestone_id: Id.nullable(),
    payout_id: Id.nullable(),
    checkout_id: Id.nullable(),
  })
  .strict();

export const StatementRecord = z
  .object({
    user_id: Id,
    user: UserRecord.meta({ description: "the wallet's owner, so a statement names whose it is" }),
    wallet_id: Id,
    currency: z.literal('NGN'),
    from: Timestamp,
    to: Timestamp.meta({ description: 'the end of the period, excluded' }),
    opening_balance: Naira,
    closing_balance: Naira.meta({ description: 'opening_balance plus the sum of the lines' }),
    total_in: Naira,
    total_out: Naira.meta({ description: 'the money out, as a positive amount' }),
    lines: z.array(StatementLineRecord),
  })
  .strict();
export type StatementRecord = z.infer<typeof StatementRecord>;
