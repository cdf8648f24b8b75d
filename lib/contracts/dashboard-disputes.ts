/**
 * Form inputs of the dashboard's dispute-process, dispute-team, sandbox and notification actions (issue 4).
 * As in dashboard.ts: the API's request schemas without the acting party's id (the server takes it from
 * the session), plus the record id and the form's Idempotency-Key.
 */
import { z } from 'zod';
import { Id, NairaAmount, PlainText, ProofUrl, ShortText } from './common';
import { WebhookUrl } from './webhooks';
import { IdempotencyKey } from './dashboard';
import { ADVANCE_UNITS, type ProofTokens } from './dashboard-plain';
import type * as R from './records';
import type * as W from './webhook-records';

const intent = { idempotency_key: IdempotencyKey };

/** Escalation and withdrawal name no amounts: the dispute and the intent are all. */
export const EscalateInput = z.object({ dispute_id: Id, ...intent });
export const ExtendEvidenceInput = z.object({ dispute_id: Id, reason: ShortText(2000), ...intent });
export const SubmitEvidenceInput = z.object({
  dispute_id: Id,
  text: ShortText(10_000),
  files: z.array(ProofUrl).max(20, 'at most 20 files').default([]),
  ...intent,
});
export const CancelDisputeInput = z.object({ dispute_id: Id, cancellation_agreement_details: ShortText(5000), ...intent });
export const VerdictInput = z.object({ dispute_id: Id, seller_amount: NairaAmount, reason: ShortText(5000), ...intent });

export { ADVANCE_UNITS, advanceSeconds } from './dashboard-plain';
export const AdvanceClockInput = z.object({
  amount: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(3650, 'is at most 3650'),
  unit: z.enum(ADVANCE_UNITS),
  ...intent,
});

export const MarkNotificationsReadInput = z.object({ through: Id });
export const MarkAllNotificationsReadInput = z.object({}).strict();
export const ResendDeliveryInput = z.object({ webhook_id: Id, delivery_id: Id, ...intent });
/** Send a test event to, rotate the secret of, or delete one endpoint. */
export const WebhookIntentInput = z.object({ webhook_id: Id, ...intent });
export const ResendEmailInput = z.object({ email_id: Id, ...intent });
/** The admin's new endpoint: the API's body, with the form's Idempotency-Key (a retry returns the same endpoint, without its secret). */
export const CreateWebhookInput = z.object({
  url: WebhookUrl,
  description: PlainText().trim().max(500, 'is at most 500 characters').optional(),
  ...intent,
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export type SubmitEvidenceInput = z.input<typeof SubmitEvidenceInput>;
export type CancelDisputeInput = z.infer<typeof CancelDisputeInput>;
export type VerdictInput = z.infer<typeof VerdictInput>;
export type AdvanceClockInput = z.infer<typeof AdvanceClockInput>;

// Response shapes (types only).
export type TestClock = z.infer<typeof R.TestClockRecord>;
export type Evidence = z.infer<typeof R.DisputeEvidenceRecord>;
export type OperatorDisputeList = z.infer<typeof R.OperatorDisputeListRecord>;
export type OperatorDispute = R.DisputeWithPartiesRecord;
export type EventItem = W.EventRecord;
export type EventList = z.infer<typeof W.EventListRecord>;
export type WebhookEndpoint = W.WebhookEndpointRecord;
export type WebhookEndpointWithSecret = z.infer<typeof W.WebhookEndpointWithSecretRecord>;
export type WebhookDelivery = W.WebhookDeliveryRecord;
export type WebhookDeliveryList = z.infer<typeof W.WebhookDeliveryListRecord>;

export type ArbitrationQueueView = { disputes: OperatorDisputeList['disputes']; pagination: OperatorDisputeList['pagination'] };
/** `proof_tokens`: signed links to the case's proof files for the team member reading it. */
export type ArbitrationView = { dispute: OperatorDispute; client_name: string | null; proof_tokens: ProofTokens };

/** One line in the bell: what happened, in words, and where to look. */
export type Notification = { id: string; text: string; href: string | null; at: string; unread: boolean };
export type NotificationsView = { items: Notification[]; unread: number; newest: string | null };

export type WebhooksView = { webhooks: WebhookEndpoint[] };
export type DeliveriesView = { webhook: WebhookEndpoint; deliveries: WebhookDeliveryList };
/** A delivery's body, as the endpoint is (or will be) sent it. */
export type DeliveryPayloadView = { event_id: string; payload: W.WebhookPayload };
