import 'server-only';
import { AdvanceClockBody } from '@/lib/contracts/operator';
import * as R from '@/lib/contracts/records';
import { advanceTestClock, testClock } from '@/lib/server/services/test-clock';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const getClock = operation({
  method: 'get', path: '/test-clock', operationId: 'getTestClock', tag: 'Sandbox', auth: 'client',
  summary: "This client's clock",
  description: 'Sandbox clients can run ahead of the wall clock to see deadlines lapse.',
  response: R.TestClockRecord,
  errors: BASE_ERRORS,
});

const advanceClock = operation({
  method: 'post', path: '/test-clock/advance', operationId: 'advanceTestClock', tag: 'Sandbox', auth: 'client',
  summary: 'Move sandbox time forward',
  description:
    'Test keys only. Every deadline that lapses on the way acts before the response, as it would in real time: inspections accept, returns approve, mediation escalates, evidence windows close.',
  request: { body: jsonBody(AdvanceClockBody) },
  example: { days: 3 },
  response: R.TestClockRecord,
  errors: [...BODY_ERRORS, 'LIVE_MODE_FORBIDDEN'],
});

export const testClockRoutes = router()
  .openapi(getClock, async (c) => ok('Test clock retrieved', testClock(c.var.client, new Date())))
  .openapi(advanceClock, async (c) => ok('Test clock advanced; lapsed deadlines have acted', await advanceTestClock(c.var.db, c.var.client, c.req.valid('json'))));
