import 'server-only';
import * as R from '@/lib/contracts/records';
import { CreateTransactionBody, ListTransactionsQuery } from '@/lib/contracts/transactions';
import { createTransaction, getTransaction, listTransactions } from '@/lib/server/services/transactions';
import { baseUrl } from '../middleware/base-url';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const createTransactionOp = operation({
  method: 'post', path: '/transactions', operationId: 'createTransaction', tag: 'Transactions', auth: 'client',
  summary: 'Create a transaction and its milestones',
  description: 'Each milestone gets an escrow of balance 0 and its fee, computed now from your fee policy.',
  request: { body: jsonBody(CreateTransactionBody) },
  response: R.TransactionWithMilestonesRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND'],
});

const listTransactionsOp = operation({
  method: 'get', path: '/transactions', operationId: 'listTransactions', tag: 'Transactions', auth: 'client',
  summary: 'List transactions',
  request: { query: ListTransactionsQuery },
  response: R.TransactionListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const getTransactionOp = operation({
  method: 'get', path: '/transactions/{id}', operationId: 'getTransaction', tag: 'Transactions', auth: 'client',
  summary: 'Fetch a transaction with its parties and milestones',
  request: { params: pathIds({ id: 'transaction_id' }) },
  response: R.TransactionWithMilestonesRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

export const transactionRoutes = router()
  .openapi(createTransactionOp, async (c) =>
    ok('Transaction created successfully', await createTransaction(c.var.db, c.var.client, c.req.valid('json'), c.var.now, baseUrl(c))),
  )
  .openapi(listTransactionsOp, async (c) => ok('Transactions retrieved successfully', await listTransactions(c.var.db, c.var.client, c.req.valid('query'))))
  .openapi(getTransactionOp, async (c) => ok('Transaction retrieved successfully', await getTransaction(c.var.db, c.var.client, c.req.valid('param').id)));
