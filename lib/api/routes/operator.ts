import 'server-only';
import { createRoute, z } from '@hono/zod-openapi';
import { OperatorDisputesQuery, VerdictBody } from '@/lib/contracts/disputes';
import { CreateClientBody, ListClientsQuery, UpdateClientBody } from '@/lib/contracts/operator';
import { ReconciliationQuery, ReconciliationRecord } from '@/lib/contracts/payouts';
import * as R from '@/lib/contracts/records';
import { createClient, listClients, updateClient } from '@/lib/server/services/create-client';
import { decideVerdict, operatorDispute, operatorDisputes } from '@/lib/server/services/dispute-process';
import { embeddedBackup } from '@/lib/server/services/backup';
import { ledgerIntegrity } from '@/lib/server/services/ledger-integrity';
import { readFileOfAnyClient } from '@/lib/server/services/files';
import { reconcile } from '@/lib/server/payouts/reconciliation';
import { baseUrl } from '../middleware/base-url';
import { BASE_ERRORS, BODY_ERRORS, docsOf, errorResponses, jsonBody, middlewareOf, operation, pathIds, type OperationDocs } from '../operation';
import { ok } from '../respond';
import { router } from '../router';
import { okShowingSecretOnce } from '../shown-once';
import { FILE_BYTES, fileResponse } from './files';

const createClientOp = operation({
  method: 'post', path: '/operator/clients', operationId: 'createClient', tag: 'Operator', auth: 'operator',
  summary: 'Create an integrating client and its keys',
  description: 'The secret key is returned once; only its hash is stored. An Idempotency-Key replay answers with secret_key null.',
  request: { body: jsonBody(CreateClientBody) },
  example: { name: 'Demo Marketplace', mode: 'test' },
  response: R.ClientWithKeysRecord,
  errors: BODY_ERRORS,
});

const listClientsOp = operation({
  method: 'get', path: '/operator/clients', operationId: 'listClients', tag: 'Operator', auth: 'operator',
  summary: 'List integrating clients (no secret keys)',
  description: 'Every integrating client with its mode, KYC state and fee policy, oldest first by default; secret keys are never shown again after creation.',
  request: { query: ListClientsQuery },
  response: R.ClientListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const updateClientOp = operation({
  method: 'patch', path: '/operator/clients/{id}', operationId: 'updateClient', tag: 'Operator', auth: 'operator',
  summary: "Update a client: name, KYC, fees, auto_payout",
  description: 'A live client creates users once is_kyc_completed is true. Fees apply to milestones created afterwards. Every server holds the change from the moment this answers.',
  request: { params: pathIds({ id: 'client_id' }), body: jsonBody(UpdateClientBody) },
  example: { is_kyc_completed: true, fee_basis_points: 150, fee_cap: 5000 },
  response: R.ClientRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND'],
});

const disputesOp = operation({
  method: 'get', path: '/operator/disputes', operationId: 'operatorDisputes', tag: 'Operator', auth: 'operator',
  summary: "The dispute team's queue across clients",
  description: 'Oldest first; filter awaiting_verdict=true for the arbitration queue (ARBITRATION and ARBITRATION_DECLINED), or by status.',
  request: { query: OperatorDisputesQuery },
  response: R.OperatorDisputeListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const disputeOp = operation({
  method: 'get', path: '/operator/disputes/{id}', operationId: 'operatorDispute', tag: 'Operator', auth: 'operator',
  summary: "A dispute with both parties' evidence",
  description: "One dispute of any client as the dispute team decides it: its parties, milestone, proposals and both parties' evidence, in the order it was given.",
  request: { params: pathIds({ id: 'dispute_id' }) },
  response: R.DisputeWithPartiesRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const verdictOp = operation({
  method: 'post', path: '/operator/disputes/{id}/verdict', operationId: 'decideVerdict', tag: 'Operator', auth: 'operator',
  summary: "The dispute team's verdict",
  description:
    "On a dispute in ARBITRATION, or in ARBITRATION_DECLINED until its declined_refund deadline refunds the buyer. The seller's share (0 up to max_dispute_amount) with a written reason; the rest of the escrow goes to the buyer. Final.",
  request: { params: pathIds({ id: 'dispute_id' }), body: jsonBody(VerdictBody) },
  example: { seller_amount: 280000, reason: 'Six of twenty jerrycans leaked: the seller keeps the price of the fourteen sound ones.' },
  response: R.DisputeWithPartiesRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'INVALID_STATE', 'DISPUTE_AMOUNT_OUT_OF_RANGE'],
});

const readFileDocs: OperationDocs = {
  operationId: 'operatorReadFile', tag: 'Operator', auth: 'operator',
  summary: "Read any client's stored file",
  description: "For the dispute team: a party's evidence or proof of delivery or return, whichever client stored it. The same bytes and headers as GET /v1/files/{id}.",
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
};
const fileId = pathIds({ id: 'file_id' });

const readFileOp = createRoute({
  method: 'get',
  path: '/operator/files/{id}',
  ...docsOf(readFileDocs),
  request: { params: fileId },
  responses: { ...FILE_BYTES, ...errorResponses(readFileDocs.errors) },
  middleware: middlewareOf('operator', { params: fileId }),
});

const backupDocs: OperationDocs = {
  operationId: 'operatorBackup', tag: 'Operator', auth: 'operator',
  summary: 'A consistent copy of the embedded database',
  description:
    'The embedded database as a gzipped tar (what `npm run backup` saves), taken between statements while the server runs: requests wait while it is copied. ' +
    'The encryption key is not in it: keep that apart. On PostgreSQL 409 INVALID_STATE: back up with pg_dump, or base backups and WAL archiving.',
  errors: [...BASE_ERRORS, 'INVALID_STATE'],
};

const backupOp = createRoute({
  method: 'get',
  path: '/operator/backup',
  ...docsOf(backupDocs),
  responses: {
    200: { description: "The embedded database's data directory, a gzipped tar", content: { 'application/gzip': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errorResponses(backupDocs.errors),
  },
  middleware: middlewareOf('operator'),
});

const ledgerOp = operation({
  method: 'get', path: '/operator/ledger/integrity', operationId: 'ledgerIntegrity', tag: 'Operator', auth: 'operator',
  summary: 'Audit the ledger',
  description: 'Every transfer balances, the ledger sums to zero, cached balances equal their entries, no wallet or escrow below zero.',
  response: R.LedgerIntegrityRecord,
  errors: BASE_ERRORS,
});

const reconciliationOp = operation({
  method: 'get', path: '/operator/reconciliation', operationId: 'reconciliation', tag: 'Operator', auth: 'operator',
  summary: 'Payouts and provider fundings set against the ledger',
  description:
    'Between from and to (default: the last 30 days): every payout outcome and provider funding in the ledger paired with the provider\'s word for it. Listed: payouts PROCESSING for over a day, a provider outcome without its ledger transfer, a ledger transfer without its provider outcome.',
  request: { query: ReconciliationQuery },
  response: ReconciliationRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR'],
});

export const operatorRoutes = router()
  .openapi(createClientOp, async (c) =>
    okShowingSecretOnce(
      c,
      'Client created. Store the secret key now: it is not shown again.',
      await createClient(c.var.db, c.req.valid('json'), c.var.now),
      'secret_key',
      'Client already created by the first request with this Idempotency-Key. Its secret key was shown only in that answer and is not kept (only its hash is), so secret_key is null here; if it was lost, create a new client.',
    ),
  )
  .openapi(listClientsOp, async (c) => ok('Clients retrieved successfully', await listClients(c.var.db, c.req.valid('query'))))
  .openapi(updateClientOp, async (c) => ok('Client updated successfully', await updateClient(c.var.db, c.req.valid('param').id, c.req.valid('json'), c.var.now)))
  .openapi(disputesOp, async (c) => {
    const query = c.req.valid('query');
    return ok('Disputes retrieved successfully', await operatorDisputes(c.var.db, { ...query, sort: query.sort }, baseUrl(c)));
  })
  .openapi(disputeOp, async (c) => ok('Dispute retrieved successfully', await operatorDispute(c.var.db, c.req.valid('param').id, baseUrl(c))))
  .openapi(verdictOp, async (c) =>
    ok('Verdict recorded; the escrow has been split', await decideVerdict(c.var.db, c.req.valid('param').id, c.req.valid('json'), baseUrl(c))),
  )
  .openapi(readFileOp, async (c) => fileResponse(await readFileOfAnyClient(c.var.db, c.req.valid('param').id)))
  .openapi(backupOp, async () => {
    const backup = await embeddedBackup();
    return new Response(backup.stream(), {
      headers: {
        'content-type': 'application/gzip',
        'content-length': String(backup.size),
        'content-disposition': 'attachment; filename="escrow-desk-backup.tar.gz"',
        'cache-control': 'no-store',
      },
    });
  })
  .openapi(ledgerOp, async (c) => ok('Ledger integrity checked', await ledgerIntegrity(c.var.db)))
  .openapi(reconciliationOp, async (c) => {
    const query = c.req.valid('query');
    const now = new Date();
    const to = query.to ? new Date(query.to) : now;
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * 24 * 60 * 60_000);
    return ok('Reconciliation done', await reconcile(c.var.db, { from, to, now }));
  });
