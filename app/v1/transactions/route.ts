import { CreateTransactionBody, ListTransactionsQuery } from '@/lib/contracts/transactions';
import { readJson, readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { createTransaction, listTransactions } from '@/lib/server/services/transactions';

export const GET = withClient(async ({ db, client, request }) =>
  ok('Transactions retrieved successfully', await listTransactions(db, client, readQuery(request, ListTransactionsQuery))),
);

export const POST = withClient(async ({ db, client, request, now, baseUrl }) =>
  ok('Transaction created successfully', await createTransaction(db, client, await readJson(request, CreateTransactionBody), now, baseUrl)),
);
