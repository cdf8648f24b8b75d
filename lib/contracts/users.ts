import { z } from 'zod';
import { LimitParam, ListFilterParams, PageParam, PlainText, ShortText, SortParam } from './common';

const Email = z.email({ message: 'must be an email address' }).max(254);

/** Reads email_address or email; both may be sent if they agree (decisions §3). */
export const CreateUserBody = z
  .object({
    first_name: ShortText(100),
    last_name: ShortText(100),
    email_address: Email.optional(),
    email: Email.optional(),
    phone: z.string().trim().regex(/^\+?\d{7,15}$/, 'must be 7 to 15 digits, optionally with a leading +').optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.email_address && !body.email) {
      ctx.addIssue({ code: 'custom', path: ['email_address'], message: 'is required (or send email)' });
    } else if (body.email_address && body.email && body.email_address.toLowerCase() !== body.email.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'must be the same as email_address when both are sent' });
    }
  });
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const ListUsersQuery = z.object({
  page: PageParam,
  limit: LimitParam,
  sort: SortParam,
  search: PlainText().trim().max(100).optional(),
  created_from: ListFilterParams.created_from,
  created_to: ListFilterParams.created_to,
});
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;
