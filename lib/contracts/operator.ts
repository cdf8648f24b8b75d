import { z } from 'zod';
import { NairaAmount, OptionalPaging, ShortText, SortParam, unlessMissing } from './common';

export const CreateClientBody = z.strictObject({
  name: ShortText(200),
  mode: z.enum(['test', 'live']).optional().default('test'),
});
export type CreateClientBody = z.infer<typeof CreateClientBody>;

/** GET /v1/operator/clients: oldest first by default, as the list always answered. */
export const ListClientsQuery = z.object({
  ...OptionalPaging,
  sort: SortParam.optional().default('ASC').meta({ description: 'ASC (oldest first, the default) or DESC' }),
});
export type ListClientsQuery = z.infer<typeof ListClientsQuery>;

/** PATCH /v1/operator/clients/{id} (docs/decisions.md §14): any of these, at least one. */
export const UpdateClientFields = z.strictObject({
    name: ShortText(200).optional(),
    is_kyc_completed: z.boolean({ error: unlessMissing('must be true or false') }).optional(),
    fee_basis_points: z.number().int({ error: unlessMissing('must be a whole number of basis points') }).min(0).max(2000, 'is at most 2000 (20%)').optional(),
    fee_cap: NairaAmount.nullable().optional().meta({ description: 'the most a milestone pays in fees, naira; null for no cap' }),
    auto_payout: z.boolean({ error: unlessMissing('must be true or false') }).optional(),
});
export const UpdateClientBody = UpdateClientFields.refine((b) => Object.keys(b).length > 0, { message: 'send at least one of name, is_kyc_completed, fee_basis_points, fee_cap, auto_payout', path: ['(body)'] });
export type UpdateClientBody = z.infer<typeof UpdateClientBody>;

export const AdvanceClockBody = z
  .strictObject({
    seconds: z.number().int().min(0).max(10 * 365 * 86_400).optional().meta({ default: 0, description: 'seconds to move the clock on (added to days)' }),
    days: z.number().min(0).max(3650).optional().meta({ default: 0, description: 'days to move the clock on (added to seconds)' }),
  })
  .refine((b) => b.seconds !== undefined || b.days !== undefined, { message: 'send seconds or days', path: ['seconds'] });
