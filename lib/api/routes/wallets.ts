import 'server-only';
import { createRoute, z } from '@hono/zod-openapi';
import { successEnvelope } from '@/lib/contracts/common';
import { ListBankAccountsQuery, sandboxAccountExamples, SaveBankAccountBody, ValidateBankAccountBody } from '@/lib/contracts/banks';
import * as R from '@/lib/contracts/records';
import { FundWalletBody, GetWalletQuery, StatementQuery, StatementRecord, WalletDetailRecord, WalletHistoryQuery } from '@/lib/contracts/wallets';
import { listBankAccounts, listBanks, removeBankAccount, saveBankAccount, validateBankAccount } from '@/lib/server/services/bank-accounts';
import { fundWallet, getWalletWith, walletHistory } from '@/lib/server/services/wallets';
import { statementCsv, walletStatement } from '@/lib/server/services/wallet-statement';
import { BASE_ERRORS, BODY_ERRORS, docsOf, errorResponses, jsonBody, middlewareOf, operation, pathIds, type OperationDocs } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const userId = pathIds({ user_id: 'user_id' });

const listBanksOp = operation({
  method: 'get', path: '/wallets/banks', operationId: 'listBanks', tag: 'Bank accounts', auth: 'client',
  summary: 'List Nigerian banks and their codes',
  description: 'The Nigerian banks payouts can go to, with the codes the bank account operations take.',
  response: z.array(R.BankRecord),
  errors: BASE_ERRORS,
});

const saveBankAccountOp = operation({
  method: 'post', path: '/wallets/banks/disbursement', operationId: 'saveBankAccount', tag: 'Bank accounts', auth: 'client',
  summary: 'Save a disbursement bank account for a user',
  description: 'The NUBAN check digit is verified against the bank and the account name is looked up. Saving the same account again returns it.',
  request: { body: jsonBody(SaveBankAccountBody) },
  example: { user_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', bank_code: '058', account_number: '0016563228' },
  examples: sandboxAccountExamples(({ bank_code, account_number }) => ({ user_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', bank_code, account_number })),
  response: R.BankAccountRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'INVALID_ACCOUNT_NUMBER', 'PROVIDER_UNAVAILABLE'],
});

const removeBankAccountOp = operation({
  method: 'delete', path: '/wallets/banks/disbursement/{id}', operationId: 'removeBankAccount', tag: 'Bank accounts', auth: 'client',
  summary: 'Remove a saved bank account',
  description: 'It is never paid to again, and stays on the payouts that name it. An account with a payout still PENDING or PROCESSING is 409. Saving it again brings it back.',
  request: { params: pathIds({ id: 'bank_account_id' }) },
  response: R.BankAccountRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'],
});

const listBankAccountsOp = operation({
  method: 'get', path: '/wallets/banks/list', operationId: 'listBankAccounts', tag: 'Bank accounts', auth: 'client',
  summary: 'List saved bank accounts with their users',
  description: 'The bank accounts saved for your users (or one user), each with its user and whether the bank’s name for it is the user’s.',
  request: { query: ListBankAccountsQuery },
  response: R.BankAccountListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const validateBankAccountOp = operation({
  method: 'post', path: '/wallets/banks/validate', operationId: 'validateBankAccount', tag: 'Bank accounts', auth: 'client',
  summary: 'Account name enquiry',
  description: 'Checks the NUBAN check digit against the bank and asks the bank (the sandbox, with test keys) for the account’s name; nothing is saved. The named examples are sandbox accounts whose answers are known in advance (docs/api.md).',
  request: { body: jsonBody(ValidateBankAccountBody) },
  example: { bank_code: '058', account_number: '0016563228' },
  examples: sandboxAccountExamples(({ bank_code, account_number }) => ({ bank_code, account_number })),
  response: R.NameEnquiryRecord,
  errors: [...BODY_ERRORS, 'INVALID_ACCOUNT_NUMBER', 'PROVIDER_UNAVAILABLE'],
});

const fundWalletOp = operation({
  method: 'post', path: '/wallets/fund', operationId: 'fundWallet', tag: 'Wallets', auth: 'client',
  summary: 'Sandbox: credit a wallet',
  description: 'Test keys only; live keys get 403.',
  request: { body: jsonBody(FundWalletBody) },
  example: { user_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', amount: 500000 },
  response: R.WalletWithOwnerRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'LIVE_MODE_FORBIDDEN', 'LIMIT_EXCEEDED'],
});

const getWalletOp = operation({
  method: 'get', path: '/wallets/{user_id}', operationId: 'getWallet', tag: 'Wallets', auth: 'client',
  summary: "Fetch a user's wallet and balance",
  description:
    "A user's wallet and its balance in naira; live wallets also show the dedicated bank account that funds them. include=history,payouts,bank_accounts,user (any of them) adds the first page of the wallet's history, of the user's payouts and of their saved bank accounts, and the user, as those operations answer them: a wallet page in one call. Any other value is 400 VALIDATION_ERROR naming include.",
  request: { params: userId, query: GetWalletQuery },
  response: WalletDetailRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const walletHistoryOp = operation({
  method: 'get', path: '/wallets/{user_id}/history', operationId: 'walletHistory', tag: 'Wallets', auth: 'client',
  summary: "A wallet's ledger entries, newest first",
  description: "A wallet's ledger entries, newest first: every credit and debit with the balance after it and what caused it.",
  request: { params: userId, query: WalletHistoryQuery },
  response: R.WalletHistoryRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const statementDocs: OperationDocs = {
  operationId: 'walletStatement', tag: 'Wallets', auth: 'client',
  summary: "A wallet's statement for a period",
  description:
    'Every line of the period, oldest first, with the balance after it: opening_balance plus the lines is closing_balance. The period defaults to the current Lagos month. With Accept: text/csv, the same lines as CSV (a header row, amounts with two decimals).',
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
};
const statementRequest = { params: userId, query: StatementQuery };

/** Answers JSON, or the lines as CSV when asked for (docs/decisions.md §18): both declared for the reference. */
const walletStatementOp = createRoute({
  method: 'get',
  path: '/wallets/{user_id}/statement',
  ...docsOf(statementDocs),
  request: statementRequest,
  responses: {
    200: {
      description: 'Success',
      content: {
        'application/json': { schema: successEnvelope(StatementRecord) },
        'text/csv': { schema: z.string().openapi({ example: 'at,kind,amount,balance_after,description,transaction_id,milestone_id,payout_id,checkout_id' }) },
      },
    },
    ...errorResponses(statementDocs.errors),
  },
  middleware: middlewareOf('client', statementRequest),
});

/** CSV when the Accept header asks for it ahead of JSON. */
function wantsCsv(accept: string | undefined): boolean {
  const types = (accept ?? '').toLowerCase().split(',').map((t) => t.split(';')[0]!.trim());
  const csv = types.indexOf('text/csv');
  const json = types.indexOf('application/json');
  return csv >= 0 && (json < 0 || csv < json);
}

/** The fixed paths under /wallets come before /wallets/{user_id}: "banks" is never a user id. */
export const walletRoutes = router()
  .openapi(listBanksOp, async () => ok('Banks retrieved successfully', listBanks()))
  .openapi(saveBankAccountOp, async (c) => {
    const { created, account } = await saveBankAccount(c.var.db, c.var.client, c.req.valid('json'), c.var.now);
    return ok(created ? 'Disbursement account created successfully' : 'Disbursement account already saved', account);
  })
  .openapi(removeBankAccountOp, async (c) => ok('Bank account removed', await removeBankAccount(c.var.db, c.var.client, c.req.valid('param').id, c.var.now)))
  .openapi(listBankAccountsOp, async (c) => ok('Bank accounts retrieved successfully', await listBankAccounts(c.var.db, c.var.client, c.req.valid('query'))))
  .openapi(validateBankAccountOp, async (c) => {
    const body = c.req.valid('json');
    return ok('Account name retrieved successfully', await validateBankAccount(c.var.client, body.account_number, body.bank_code));
  })
  .openapi(fundWalletOp, async (c) => ok('Wallet funded successfully', await fundWallet(c.var.db, c.var.client, c.req.valid('json'), c.var.now)))
  .openapi(getWalletOp, async (c) => {
    const include = new Set(c.req.valid('query').include ?? []);
    return ok('Wallet retrieved successfully', await getWalletWith(c.var.db, c.var.client, c.req.valid('param').user_id, include));
  })
  .openapi(walletHistoryOp, async (c) =>
    ok('Wallet history retrieved successfully', await walletHistory(c.var.db, c.var.client, c.req.valid('param').user_id, c.req.valid('query'))),
  )
  .openapi(walletStatementOp, async (c) => {
    const statement = await walletStatement(c.var.db, c.var.client, c.req.valid('param').user_id, c.req.valid('query'), c.var.now);
    if (!wantsCsv(c.req.header('accept'))) return ok('Statement retrieved successfully', statement);
    return new Response(statementCsv(statement), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="statement-${statement.from.slice(0, 10)}-${statement.user_id}.csv"`,
        'cache-control': 'private, no-store',
      },
    });
  });
