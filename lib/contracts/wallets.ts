import { z } from 'zod';
import { Id, PositiveAmount } from './common';

export const FundWalletBody = z.object({ user_id: Id, amount: PositiveAmount });
export type FundWalletBody = z.infer<typeof FundWalletBody>;
