import { z } from 'zod';
import { IdRef, OptionalPaging, PositiveAmount } from './common';

export const FundWalletBody = z.object({ user_id: IdRef, amount: PositiveAmount });
export type FundWalletBody = z.infer<typeof FundWalletBody>;

export const WalletHistoryQuery = z.object({ after: OptionalPaging.after, page: OptionalPaging.page, limit: OptionalPaging.limit });
export type WalletHistoryQuery = z.infer<typeof WalletHistoryQuery>;
