import { describe, expect, it } from 'vitest';
import { newTrace, parseTraceparent, traceparentOf } from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('parseTraceparent', () => {
  it('reads the trace id and flags of a valid header', () => {
    expect(parseTraceparent(`00-${TRACE}-00f067aa0ba902b7-01`)).toEqual({ traceId: TRACE, flags: '01' });
  });

  it('accepts a later version with more fields, as the recommendation asks', () => {
    expect(parseTraceparent(`01-${TRACE}-00f067aa0ba902b7-00-future`)).toEqual({ traceId: TRACE, flags: '00' });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['upper case', `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent id', `00-${TRACE}-0000000000000000-01`],
    ['version ff', `ff-${TRACE}-00f067aa0ba902b7-01`],
    ['version 00 with more fields', `00-${TRACE}-00f067aa0ba902b7-01-extra`],
    ['a short trace id', `00-${TRACE.slice(1)}-00f067aa0ba902b7-01`],
    ['something else injected', `00-${TRACE}-00f067aa0ba902b7-01"}\n{"level":"info"`],
  ])('refuses %s', (_name, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });
});

describe('traceparentOf', () => {
  it('keeps the trace and makes a new parent id per call, each a valid header', () => {
    const trace = newTrace();
    const [first, second] = [traceparentOf(trace), traceparentOf(trace)];
    expect(parseTraceparent(first)).toEqual(trace);
    expect(parseTraceparent(second)).toEqual(trace);
    expect(first).not.toBe(second);
  });
});
