import { z } from 'zod';
import { ShortText } from './common';

export const CreateClientBody = z.object({
  name: ShortText(200),
  mode: z.enum(['test', 'live']).optional().default('test'),
});
export type CreateClientBody = z.infer<typeof CreateClientBody>;
