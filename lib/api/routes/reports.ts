import 'server-only';
import { eq } from 'drizzle-orm';
import { OperatorOverviewQuery, OverviewQuery, OverviewRecord } from '@/lib/contracts/reports';
import { notFound } from '@/lib/server/app-error';
import { clients } from '@/lib/server/db/schema';
import { reportOverview } from '@/lib/server/services/reports';
import { BASE_ERRORS, operation } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const DESCRIPTION =
  "Computed from the ledger when asked: held_in_escrow is the sum of the milestone escrow balances now; each month (Africa/Lagos, on the client's clock: a sandbox's test clock) sums the ledger entries of its transfers: funded into escrows, released to sellers' wallets, refunded to buyers' wallets, fees into the fee account. Released + refunded + fees is what left escrow. Amounts in naira.";

const overviewOp = operation({
  method: 'get', path: '/reports/overview', operationId: 'reportOverview', tag: 'Reports', auth: 'client',
  summary: 'Money held, released, refunded and earned, and disputes open or late',
  description: DESCRIPTION,
  request: { query: OverviewQuery },
  response: OverviewRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR'],
});

const operatorOverviewOp = operation({
  method: 'get', path: '/operator/reports/overview', operationId: 'operatorReportOverview', tag: 'Operator', auth: 'operator',
  summary: "The overview of one client, or of every client",
  description: `${DESCRIPTION} With client_id, that client's figures on its clock; without it, every client's together, on the wall clock.`,
  request: { query: OperatorOverviewQuery },
  response: OverviewRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

export const reportRoutes = router()
  .openapi(overviewOp, async (c) =>
    ok('Overview retrieved successfully', await reportOverview(c.var.db, { clientId: c.var.client.id, months: c.req.valid('query').months, now: c.var.now })),
  )
  .openapi(operatorOverviewOp, async (c) => {
    const query = c.req.valid('query');
    let now = c.var.now;
    if (query.client_id) {
      const [client] = await c.var.db.select({ offset: clients.clockOffsetMs }).from(clients).where(eq(clients.id, query.client_id));
      if (!client) throw notFound('Client', query.client_id);
      now = new Date(Date.now() + client.offset);
    }
    return ok('Overview retrieved successfully', await reportOverview(c.var.db, { clientId: query.client_id ?? null, months: query.months, now }));
  });
