import 'server-only';
import { headers } from 'next/headers';
import { unstable_rethrow } from 'next/navigation';
import { newTrace, parseTraceparent, traceparentOf, type TraceContext } from '../trace-context';

/** One trace per incoming request, keyed by that request's headers (the same object for all of its renders). */
const traces = new WeakMap<object, TraceContext>();

async function incomingHeaders(): Promise<Awaited<ReturnType<typeof headers>> | undefined> {
  try {
    return await headers();
  } catch (error) {
    // Next's own signals (a static render bailing out) go on; outside a request there are no headers.
    unstable_rethrow(error);
    return undefined;
  }
}

/**
 * The `traceparent` a /v1 call carries: the incoming dashboard request's trace when it came with a valid one,
 * otherwise one new trace for all the calls of that request (and of each call made outside any request).
 */
export async function outgoingTraceparent(): Promise<string> {
  const incoming = await incomingHeaders();
  if (!incoming) return traceparentOf(newTrace());
  let trace = traces.get(incoming);
  if (!trace) {
    trace = parseTraceparent(incoming.get('traceparent')) ?? newTrace();
    traces.set(incoming, trace);
  }
  return traceparentOf(trace);
}
