import { CreateUserBody, ListUsersQuery } from '@/lib/contracts/users';
import { readJson, readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { createUser, listUsers } from '@/lib/server/services/users';

export const GET = withClient(async ({ db, client, request }) =>
  ok('Users retrieved successfully', await listUsers(db, client, readQuery(request, ListUsersQuery))),
);

export const POST = withClient(async ({ db, client, request, now }) =>
  ok('Account created successfully', await createUser(db, client, await readJson(request, CreateUserBody), now)),
);
