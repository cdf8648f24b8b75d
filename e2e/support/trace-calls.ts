/**
 * The /v1 calls one page load made, read from the server's request log lines by the trace id the dashboard passes on
 * in `traceparent` (docs/dashboard.md, "API calls per page"): a proof image the browser downloads is content, counted
 * apart from the calls the page makes to render. Shared by the counting spec and the bench.
 */
const FILE_DOWNLOAD = /^\/v1\/(operator\/)?files\/[^/]+$/;

export type TraceCalls = { calls: number; files: number; routes: string[]; ms: number };

export function callsOfTrace(log: string, trace: string): TraceCalls {
  const counted: TraceCalls = { calls: 0, files: 0, routes: [], ms: 0 };
  for (const line of log.split('\n')) {
    if (!line.includes(trace) || !line.includes('"msg":"request"')) continue;
    const entry = JSON.parse(line) as { msg?: string; trace_id?: string; method?: string; route?: string; duration_ms?: number };
    if (entry.msg !== 'request' || entry.trace_id !== trace) continue;
    if (entry.method === 'GET' && FILE_DOWNLOAD.test(entry.route ?? '')) {
      counted.files++;
      continue;
    }
    counted.calls++;
    counted.routes.push(`${entry.method} ${entry.route}`);
    counted.ms += entry.duration_ms ?? 0;
  }
  return counted;
}
