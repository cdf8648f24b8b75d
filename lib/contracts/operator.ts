import { z } from 'zod';
import { ShortText } from './common';

export const CreateClientBody = z.object({
  name: ShortText(200),
  mode: z.enum(['test', 'live']).optional().default('test'),
});
export type CreateClientBody = z.infer<typeof CreateClientBody>;

export const AdvanceClockBody = z
  .object({
    seconds: z.number().int().min(0).max(10 * 365 * 86_400).optional(),
    days: z.number().min(0).max(3650).optional(),
  })
  .refine((b) => b.seconds !== undefined || b.days !== undefined, { message: 'send seconds or days', path: ['seconds'] });
