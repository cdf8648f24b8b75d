/** Events and webhook endpoints (docs/decisions.md §9, §10): request schemas for /v1/events and /v1/webhooks. */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { AfterParam, hasNoNul, IdRef, IsoInstant, NO_NUL, ShortText, SortParam, unlessMissing, OptionalLimit, OptionalPage } from './common';

/** Every event type the service records; the server's outbox checks at compile time that it writes no other. */
export const EVENT_TYPES = [
  'transaction.created',
  'transaction.cancellation_requested',
  'transaction.cancellation_declined',
  'transaction.canceled',
  'transaction.terminated',
  'transaction.rated',
  'wallet.funded',
  'milestone.funded',
  'milestone.delivered',
  'milestone.delivery_accepted',
  'milestone.delivery_rejected',
  'milestone.return_approved',
  'milestone.return_rejected',
  'milestone.extension_requested',
  'milestone.extension_approved',
  'milestone.extension_declined',
  'milestone.refunded',
  'milestone.partial_acceptance_proposed',
  'milestone.partial_acceptance_accepted',
  'milestone.partial_acceptance_declined',
  'dispute.created',
  'dispute.amount_proposed',
  'dispute.amount_rejected',
  'dispute.counter_offered',
  'dispute.escalated',
  'dispute.evidence_submitted',
  'dispute.evidence_extended',
  'dispute.resolved',
  'dispute.arbitration_declined',
  'dispute.canceled',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'payout.reversed',
  'checkout.paid',
  'checkout.failed',
  'checkout.expired',
  'deadline.approaching',
  'deadline.lapsed',
  'webhook.test',
] as const;
export type EventTypeName = (typeof EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const ListEventsQuery = z.object({
  type: z.enum(EVENT_TYPES, { error: unlessMissing('must be an event type such as milestone.funded') }).optional(),
  transaction_id: IdRef.optional(),
  after: IdRef.optional().meta({
    description:
      'an event id: only events recorded after it, in either order (a cursor for catching up). In the default, oldest-first order `pagination.nextAfter` is the next page\'s cursor; newest first it is null. Not with `page` other than 1',
  }),
  page: OptionalPage,
  limit: OptionalLimit,
  sort: SortParam.optional().default('ASC').meta({ description: 'ASC (oldest first, the default) or DESC' }),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

/**
 * Where a client's webhooks may be sent (issue #22): a hosted service never sends to its own machine
 * or network. ipaddr.js names every address range; only 'unicast' is the public internet, and this is
 * the same rule request-filtering-agent applies to the resolved address when the dispatcher connects.
 */
export type WebhookTargetPolicy = {
  /**
   * ESCROW_WEBHOOKS_ALLOW_PRIVATE=1 for a test-mode client: loopback, private and link-local targets too (local
   * development, tests). Never for a live-mode client: the switch must not open the server's network to live money.
   */
  allowPrivate: boolean;
  /** A live-mode client: https only, always. */
  live: boolean;
};

/** The hosted service's rule, which the OpenAPI document states. */
export const PUBLIC_TARGETS_ONLY: WebhookTargetPolicy = { allowPrivate: false, live: false };

export const NOT_PUBLIC_ADDRESS = 'must reach a public address: loopback, private, link-local and other reserved addresses are refused';

export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.parse(address).range() === 'unicast';
}

/** Whether the policy lets a connection reach this address; the unspecified address (0.0.0.0, ::) never. */
export function addressAllowed(address: string, policy: Pick<WebhookTargetPolicy, 'allowPrivate'>): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.parse(address).range();
  return range === 'unicast' || (policy.allowPrivate && range !== 'unspecified');
}

/**
 * The IP address a URL names literally, or undefined for a DNS name. The URL parser has already
 * normalised the other spellings of an IPv4 address (2130706433, 127.1, 0x7f000001 are 127.0.0.1).
 */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return ipaddr.IPv4.isValidFourPartDecimal(host) ? host : undefined;
}

/** localhost and *.localhost are this machine by definition (RFC 6761), whatever a resolver says. */
export function isLocalhostName(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * What is wrong with sending to this URL under the policy, judged from the URL alone (a DNS name's
 * addresses are judged when it is registered and again when each delivery connects), or undefined.
 */
export function webhookUrlProblem(url: URL, policy: WebhookTargetPolicy): string | undefined {
  const literal = literalAddress(url);
  const local = literal ? !isPublicAddress(literal) : isLocalhostName(url);
  if (literal ? !addressAllowed(literal, policy) : local && !policy.allowPrivate) return NOT_PUBLIC_ADDRESS;
  if (url.protocol === 'http:') {
    if (policy.live) return 'must be an https URL: live keys never send over plain http';
    if (!policy.allowPrivate) return 'must be an https URL';
    if (literal && !local) return 'must be an https URL: plain http only to a private address, for local development';
  }
  return undefined;
}

/** The URL's form: http(s), no credentials, no NUL. Where it may point is webhookUrlFor's policy. */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: unlessMissing('must be an https URL') })
  .max(2048, 'is at most 2048 characters')
  .refine(hasNoNul, NO_NUL)
  .superRefine((value, ctx) => {
    // zod runs this check even when the URL check above failed.
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (url && (url.username || url.password)) ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password' });
  })
  .meta({ description: 'https URL of a public host that receives the events', example: 'https://example.com/escrow/webhooks' });

export const webhookUrlFor = (policy: WebhookTargetPolicy) =>
  WebhookUrl.superRefine((value, ctx) => {
    const problem = URL.canParse(value) ? webhookUrlProblem(new URL(value), policy) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const createWebhookBody = (policy: WebhookTargetPolicy) =>
  z.strictObject({
    url: webhookUrlFor(policy),
    description: ShortText(500).optional(),
  });

export const CreateWebhookBody = createWebhookBody(PUBLIC_TARGETS_ONLY);
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const ListDeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES, { error: unlessMissing('must be pending, succeeded or failed') }).optional(),
  after: AfterParam,
  page: OptionalPage,
  limit: OptionalLimit,
  sort: SortParam.optional().default('DESC').meta({ description: 'DESC (newest first, the default) or ASC' }),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

/**
 * Replay (docs/decisions.md §19): every event after the one named, or recorded at or after `since`, or
 * (neither) every event the client has; not both, since they would disagree on where to start.
 */
export const ReplayWebhookBody = z
  .strictObject({
    after_event_id: IdRef.optional().meta({ description: "an event id of the client's: every event recorded after it is sent again" }),
    since: IsoInstant()
      .optional()
      .meta({ description: 'every event recorded at or after this instant is sent again' }),
  })
  .refine((body) => body.after_event_id === undefined || body.since === undefined, {
    message: 'give after_event_id or since, not both',
    path: ['since'],
  })
  .meta({ description: 'Where the replay starts; with neither field, every event of the client is sent again.' });
export type ReplayWebhookBody = z.infer<typeof ReplayWebhookBody>;

/** The dashboard's "Replay from…": the API's body, with the endpoint and the form's Idempotency-Key. */
export const ReplayWebhookInput = z
  .strictObject({
    webhook_id: IdRef,
    after_event_id: IdRef.optional(),
    since: IsoInstant('must be a date and time').optional(),
    idempotency_key: z.string().regex(/^[A-Za-z0-9_-]{16,100}$/, 'must be 16 to 100 letters, digits, _ or -'),
  })
  .refine((input) => input.after_event_id === undefined || input.since === undefined, { message: 'give after_event_id or since, not both', path: ['since'] });
export type ReplayWebhookInput = z.infer<typeof ReplayWebhookInput>;
