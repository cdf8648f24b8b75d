import { z } from 'zod';
import { IdRef, OptionalPaging, PositiveAmount } from './common';

export const FundWalletBody = z.object({ user_id: IdRef, amount: PositiveAmount });
export type FundWalletBody = z.infer<typeof FundWalletBody>;

export const WalletHistoryQuery = z.object({ page: OptionalPaging.page, limit: OptionalPaging.limit });
