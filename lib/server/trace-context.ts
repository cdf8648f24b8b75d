import 'server-only';
import { randomBytes } from 'node:crypto';

/** The part of W3C trace context we carry: the trace a request belongs to and its sampling flags. */
export type TraceContext = { traceId: string; flags: string };

// version-traceid-parentid-flags; a later version may append fields, version 00 may not (W3C Trace Context §3.2).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/** The trace a `traceparent` header names, or null when the header is absent or not a valid one. */
export function parseTraceparent(header: string | null | undefined): TraceContext | null {
  if (!header || header.length > 512) return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (ZEROS.test(traceId) || ZEROS.test(parentId)) return null;
  return { traceId, flags };
}

export function newTrace(): TraceContext {
  return { traceId: randomBytes(16).toString('hex'), flags: '01' };
}

/** The header an outgoing call of this trace carries: a parent id of its own for each call. */
export function traceparentOf(trace: TraceContext): string {
  return `00-${trace.traceId}-${randomBytes(8).toString('hex')}-${trace.flags}`;
}
