import 'server-only';
import * as R from '@/lib/contracts/records';
import { GetUserQuery, UserWithRelatedRecord } from '@/lib/contracts/user-related';
import { CreateUserBody, ListUsersQuery, UpdateUserBody } from '@/lib/contracts/users';
import { getUserWithRelated } from '@/lib/server/services/user-related';
import { createUser, listUsers, updateUser } from '@/lib/server/services/users';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const listUsersOp = operation({
  method: 'get', path: '/users', operationId: 'listUsers', tag: 'Users', auth: 'client',
  summary: 'List users',
  description: 'page, limit (1–100) and sort (DESC or ASC by created_at) are all required. search filters by name or email.',
  request: { query: ListUsersQuery },
  response: R.UserListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const getUserOp = operation({
  method: 'get', path: '/users/{id}', operationId: 'getUser', tag: 'Users', auth: 'client',
  summary: 'Fetch one user',
  description:
    'One of your users by id, with its contact details and whether it is active; an id of another client is 404. include= adds its wallet, wallet history, bank accounts, payouts, card payments or transactions beside it (each list its first page), so a page about a customer reads it in one request.',
  request: { params: pathIds({ id: 'user_id' }), query: GetUserQuery },
  response: UserWithRelatedRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const createUserOp = operation({
  method: 'post', path: '/users', operationId: 'createUser', tag: 'Users', auth: 'client',
  summary: 'Create a user (customer) with a wallet',
  description: 'Reads email_address or email. A second user with the same email (case-insensitive) is 403.',
  request: { body: jsonBody(CreateUserBody) },
  example: { first_name: 'Ada', last_name: 'Obi', email_address: 'ada.obi@example.com', phone: '+2348031234567', metadata: { customer_id: 'CUS-3318' } },
  response: R.CreatedUserRecord,
  errors: [...BODY_ERRORS, 'EMAIL_TAKEN', 'KYC_INCOMPLETE'],
});

const updateUserOp = operation({
  method: 'patch', path: '/users/{id}', operationId: 'updateUser', tag: 'Users', auth: 'client',
  summary: 'Change a user: name, phone, metadata, or deactivate and reactivate',
  description:
    'Send at least one field. is_active false deactivates: a new transaction naming the user is refused (409 USER_DEACTIVATED), while the open ones run on to their end (both parties act, deadlines lapse) and the wallet, payouts and bank accounts stay. The email cannot change. metadata merges: keys with a string value are set, keys set to null or "" are removed, others stay (at most 20 in all).',
  request: { params: pathIds({ id: 'user_id' }), body: jsonBody(UpdateUserBody) },
  example: { phone: '+2348039876543' },
  response: R.UserRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND'],
});

export const userRoutes = router()
  .openapi(listUsersOp, async (c) => ok('Users retrieved successfully', await listUsers(c.var.db, c.var.client, c.req.valid('query'))))
  .openapi(getUserOp, async (c) => ok('User retrieved successfully', await getUserWithRelated(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('query').include, c.var.now)))
  .openapi(updateUserOp, async (c) => ok('User updated successfully', await updateUser(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now)))
  .openapi(createUserOp, async (c) => ok('Account created successfully', await createUser(c.var.db, c.var.client, c.req.valid('json'), c.var.now)));
