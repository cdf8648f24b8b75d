import { z } from 'zod';
import { Metadata, MetadataPatch } from './metadata';
import { AfterParam, LimitParam, ListFilterParams, PageParam, PlainText, ShortText, SortParam, unlessMissing } from './common';

const Email = z.email({ message: 'must be an email address' }).max(254);
const Phone = z.string().trim().regex(/^\+?\d{7,15}$/, 'must be 7 to 15 digits, optionally with a leading +');

/** Reads email_address or email; both may be sent if they agree (docs/decisions.md §3). */
export const CreateUserBody = z
  .strictObject({
    first_name: ShortText(100),
    last_name: ShortText(100),
    email_address: Email.optional().meta({ description: 'the user’s email address: this or `email` is required' }),
    email: Email.optional().meta({ description: 'the same as email_address (an alias): send either, or both if they agree' }),
    phone: Phone.optional(),
    metadata: Metadata.optional(),
  })
  // The document says what the refinement checks; inside allOf, openapi-typescript keeps the object's own type
  // (a sibling anyOf would turn it into a union with `unknown`).
  .meta({ allOf: [{ anyOf: [{ required: ['email_address'] }, { required: ['email'] }] }] })
  .superRefine((body, ctx) => {
    if (!body.email_address && !body.email) {
      ctx.addIssue({ code: 'custom', path: ['email_address'], message: 'is required (or send email)' });
    } else if (body.email_address && body.email && body.email_address.toLowerCase() !== body.email.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'must be the same as email_address when both are sent' });
    }
  });
export type CreateUserBody = z.infer<typeof CreateUserBody>;

/**
 * What an admin may change about a customer. The email is not among them: it names the customer's
 * dashboard sign-in and default_email, so a wrong one is fixed by deactivating and creating the customer anew.
 */
export const UpdateUserFields = z.strictObject({
  first_name: ShortText(100).optional(),
  last_name: ShortText(100).optional(),
  phone: Phone.nullable().optional().meta({ description: 'null removes the phone number' }),
  is_active: z
    .boolean({ error: unlessMissing('must be true or false') })
    .optional()
    .meta({ description: 'false deactivates: no new transaction may name this customer; open ones run on. true reactivates.' }),
  metadata: MetadataPatch.optional(),
});
export const UpdateUserBody = UpdateUserFields.refine((b) => Object.keys(b).length > 0, {
  message: 'send at least one of first_name, last_name, phone, is_active, metadata',
  path: ['(body)'],
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const ListUsersQuery = z.object({
  page: PageParam,
  limit: LimitParam,
  sort: SortParam,
  after: AfterParam,
  search: PlainText().trim().max(100).optional(),
  created_from: ListFilterParams.created_from,
  created_to: ListFilterParams.created_to,
});
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;
