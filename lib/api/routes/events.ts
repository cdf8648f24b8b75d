import 'server-only';
import * as W from '@/lib/contracts/webhook-records';
import { ListEventsQuery } from '@/lib/contracts/webhooks';
import { getEvent, listEvents } from '@/lib/server/services/events';
import { BASE_ERRORS, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const listEventsOp = operation({
  method: 'get', path: '/events', operationId: 'listEvents', tag: 'Events', auth: 'client',
  summary: 'List your events, oldest first',
  description:
    "Every state change, recorded in the same database transaction as the change. sequence numbers a transaction's events from 1. type and transaction_id filter; after (an event id) lists only later events; sort=DESC for newest first.",
  request: { query: ListEventsQuery },
  response: W.EventListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const getEventOp = operation({
  method: 'get', path: '/events/{id}', operationId: 'getEvent', tag: 'Events', auth: 'client',
  summary: 'One of your events',
  description: "The event as GET /v1/events lists it; a webhook delivery's body is this event without milestone_id and dispute_id.",
  request: { params: pathIds({ id: 'event_id' }) },
  response: W.EventRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

export const eventRoutes = router()
  .openapi(listEventsOp, async (c) => ok('Events retrieved successfully', await listEvents(c.var.db, c.var.client, c.req.valid('query'))))
  .openapi(getEventOp, async (c) => ok('Event retrieved successfully', await getEvent(c.var.db, c.var.client, c.req.valid('param').id)));
