import 'server-only';
import { lookup } from 'node:dns/promises';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import {
  addressAllowed,
  isLocalhostName,
  isPublicAddress,
  literalAddress,
  NOT_PUBLIC_ADDRESS,
  webhookUrlProblem,
  type WebhookTargetPolicy,
} from '@/lib/contracts/webhooks';
import { env } from '../env';
import { AppError } from '../app-error';

/**
 * Webhook targets (issue #22): the contract judges what a URL says literally; this module judges
 * what its name resolves to, at registration and, through request-filtering-agent, on the address
 * each delivery actually connects to (a name may resolve elsewhere by then: DNS rebinding).
 */

export function webhookTargetPolicy(client: { mode: string }): WebhookTargetPolicy {
  const live = client.mode === 'live';
  return { allowPrivate: !live && env().ESCROW_WEBHOOKS_ALLOW_PRIVATE === '1', live };
}

/** A registration waits this long for DNS at most; a name that does not resolve yet is judged when it is sent to. */
const LOOKUP_TIMEOUT_MS = 3_000;

async function resolve(hostname: string): Promise<string[]> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('DNS timeout')), LOOKUP_TIMEOUT_MS).unref());
  try {
    const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return answers.map((a) => a.address);
  } catch {
    return [];
  }
}

const invalidUrl = (message: string) => new AppError('VALIDATION_ERROR', `Invalid request: url ${message}.`, [{ field: 'url', message }]);

/** Refuses (400) a DNS name that resolves to an address the policy forbids, and plain http to a public host. */
export async function assertResolvedTargetAllowed(rawUrl: string, policy: WebhookTargetPolicy): Promise<void> {
  const url = new URL(rawUrl);
  if (literalAddress(url) || isLocalhostName(url)) return; // the contract has judged these
  const addresses = await resolve(url.hostname.replace(/\.$/, ''));
  if (addresses.some((address) => !addressAllowed(address, policy))) throw invalidUrl(NOT_PUBLIC_ADDRESS);
  // Plain http (test clients, with the switch) is for a receiver on this machine or network only.
  if (url.protocol === 'http:' && (addresses.length === 0 || addresses.some(isPublicAddress))) {
    throw invalidUrl('must be an https URL: plain http only to a private address, for local development');
  }
}

/** What a delivery refused by this policy records: never whether anything listens at the address. */
export const REFUSED_BY_POLICY = 'refused by policy, not sent';

export function refusedBeforeConnecting(rawUrl: string, policy: WebhookTargetPolicy): string | undefined {
  const problem = webhookUrlProblem(new URL(rawUrl), policy);
  return problem ? `${REFUSED_BY_POLICY}: the URL ${problem}` : undefined;
}

export const REFUSED_RESOLVED_ADDRESS = `${REFUSED_BY_POLICY}: the URL's host resolves to a loopback, private, link-local or reserved address`;

/** request-filtering-agent's refusals are plain Errors whose message is its only mark ("DNS lookup … is not allowed"). */
export function isPolicyRefusal(error: unknown): boolean {
  const message = (error as Error | undefined)?.message;
  return typeof message === 'string' && /^DNS lookup .* is not allowed\b/.test(message) && (error as NodeJS.ErrnoException).code === undefined;
}

type Agents = { http: RequestFilteringHttpAgent; https: RequestFilteringHttpsAgent };
const agents = new Map<boolean, Agents>();

/**
 * One pair per policy and process: the public internet only, or (the switch, test-mode clients) private addresses
 * too. Sockets are kept alive, so a backlog sent to one receiver reuses its connections; each address was checked
 * when its connection was made, under the policy of the agent that made it.
 */
export function deliveryAgent(url: URL, policy: WebhookTargetPolicy): RequestFilteringHttpAgent | RequestFilteringHttpsAgent {
  let pair = agents.get(policy.allowPrivate);
  if (!pair) {
    const options = { allowPrivateIPAddress: policy.allowPrivate, allowMetaIPAddress: false, keepAlive: true };
    pair = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    agents.set(policy.allowPrivate, pair);
  }
  return url.protocol === 'https:' ? pair.https : pair.http;
}
