/** Reports: the overview an admin (or the operator) signs in to, computed from the ledger. */
import { z } from 'zod';
import { Id, IdRef, Timestamp } from './common';

const Naira = z.number().meta({ description: 'naira' });
const months = z
  .string()
  .regex(/^\d{1,6}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'is at least 1').max(24, 'is at most 24'))
  .meta({ type: 'integer', minimum: 1, maximum: 24, description: 'how many Lagos months the series covers, this one included (1 to 24, default 6)' });

export const OverviewQuery = z.object({ months: months.optional().default(6).meta({ default: 6 }) });
export const OperatorOverviewQuery = z.object({
  client_id: IdRef.optional().meta({ description: 'one client; all clients when omitted' }),
  months: months.optional().default(6).meta({ default: 6 }),
});

export const OverviewMonthRecord = z
  .object({
    month: z.string().meta({ description: 'YYYY-MM, the month in Africa/Lagos', example: '2026-11' }),
    starts_at: Timestamp,
    funded: Naira.meta({ description: 'paid into milestone escrows' }),
    released: Naira.meta({ description: "paid out of escrows to sellers' wallets (the fee not included)" }),
    refunded: Naira.meta({ description: "paid out of escrows back to buyers' wallets" }),
    fees: Naira.meta({ description: "credited to the client's fee account" }),
  })
  .strict();

export const OverviewRecord = z
  .object({
    client_id: Id.nullable().meta({ description: 'null: every client (the operator without client_id)' }),
    as_of: Timestamp.meta({ description: "now on the client's clock (a sandbox's test clock)" }),
    month: z.string().meta({ description: 'this month in Africa/Lagos, YYYY-MM' }),
    currency: z.literal('NGN'),
    held_in_escrow: Naira.meta({ description: 'the sum of the milestone escrow balances now' }),
    funded_this_month: Naira,
    released_this_month: Naira,
    refunded_this_month: Naira,
    fees_this_month: Naira,
    open_disputes: z.number().int().meta({ description: 'disputes neither RESOLVED nor CANCELED' }),
    late_disputes: z.number().int().meta({
      description:
        'open disputes past their time: mediation or evidence deadline passed and not yet settled, ARBITRATION_DECLINED (no verdict, the refund waits), or in ARBITRATION for over 5 days without a verdict',
    }),
    months: z.array(OverviewMonthRecord).meta({ description: 'oldest first, this month last' }),
  })
  .strict();
export type OverviewRecord = z.infer<typeof OverviewRecord>;
