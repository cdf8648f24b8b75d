import 'server-only';
import { OpenAPIHono } from '@hono/zod-openapi';
import { documentOf } from './document';
import type { ApiEnv } from './env';
import { compression } from './middleware/compression';
import { requestContext } from './middleware/request-context';
import { routing, unknownOperation } from './middleware/routing';
import { answerWithError, json } from './respond';
import { router } from './router';
import { checkoutRoutes } from './routes/checkouts';
import { disputeRoutes } from './routes/disputes';
import { emailRoutes } from './routes/emails';
import { eventRoutes } from './routes/events';
import { fileRoutes } from './routes/files';
import { keyRoutes } from './routes/keys';
import { milestoneRoutes } from './routes/milestones';
import { operatorRoutes } from './routes/operator';
import { payoutRoutes } from './routes/payouts';
import { providerRoutes } from './routes/providers';
import { reportRoutes } from './routes/reports';
import { settingsRoutes } from './routes/settings';
import { testClockRoutes } from './routes/test-clock';
import { transactionRoutes } from './routes/transactions';
import { userRoutes } from './routes/users';
import { walletRoutes } from './routes/wallets';
import { webhookRoutes } from './routes/webhooks';

/** Every /v1 operation, by path under /v1: what the dashboard's typed client is typed from (EscrowApi). */
export const api = router()
  .route('/', operatorRoutes)
  .route('/', keyRoutes)
  .route('/', userRoutes)
  .route('/', transactionRoutes)
  .route('/', milestoneRoutes)
  .route('/', disputeRoutes)
  .route('/', testClockRoutes)
  .route('/', walletRoutes)
  .route('/', payoutRoutes)
  .route('/', checkoutRoutes)
  .route('/', settingsRoutes)
  .route('/', providerRoutes)
  .route('/', fileRoutes)
  .route('/', eventRoutes)
  .route('/', webhookRoutes)
  .route('/', emailRoutes)
  .route('/', reportRoutes);

export type EscrowApi = typeof api;

/**
 * The /v1 API: Next serves it through app/v1/[[...route]] (`next dev`), the production server
 * (scripts/serve.ts) hands /v1 requests to `app.fetch` directly, and `npm run start:api` runs it alone.
 */
export const app = new OpenAPIHono<ApiEnv>();
app.use(...compression, requestContext, routing(() => app.routes));
app.route('/v1', api);

export const openApiDocument = documentOf(app);
app.get('/v1/openapi.json', () => json(openApiDocument(), 200));

app.notFound((c) => unknownOperation(c.req.method, c.req.url));
app.onError((error, c) => answerWithError(c, error));
