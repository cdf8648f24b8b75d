/**
 * A small HTTP load driver on node:http with keep-alive sockets: closed loops at a fixed concurrency
 * (throughput) and an open loop at a fixed arrival rate (latency at a given load, measured from each
 * request's scheduled start so a slow server cannot hide its queueing: no coordinated omission).
 */
import http from 'node:http';

export type Reply = { status: number; body: any };

/** A call's failure, naming it, with the start of the answer's body. */
function failure(method: string, path: string, reply: Reply): Error {
  return new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
}

export class HttpDriver {
  private agent: http.Agent;
  private url: URL;

  constructor(
    baseUrl: string,
    private key: string,
    maxSockets: number,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.send(method, path, body, true) as Promise<Reply>;
  }

  /**
   * Sends a request; the answer's body is parsed only when `parse` says so, since parsing takes CPU from the
   * server being measured on the same machine (bench/README.md, "Why these choices").
   */
  private send(method: string, path: string, body: unknown, parse: boolean): Promise<Reply | number> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers: {
            authorization: this.key,
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (!parse && status === 200) {
            res.resume();
            res.on('end', () => resolve(status));
            res.on('error', reject);
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // keep the text
            }
            resolve({ status, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** The data of a 200 envelope, or an error naming the call. */
  async ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const reply = await this.request(method, path, body);
    if (reply.status !== 200) throw failure(method, path, reply);
    return reply.body.data as T;
  }

  /**
   * ok() for a call whose data is not used: a 200 is read to its end but not parsed (true), anything else
   * is an error, with its body.
   */
  async expectOk(method: string, path: string, body?: unknown): Promise<true> {
    const reply = await this.send(method, path, body, false);
    if (typeof reply !== 'number') throw failure(method, path, reply);
    return true;
  }

  close() {
    this.agent.destroy();
  }
}

/** Latencies in ms per operation name, and errors. */
export class Recorder {
  readonly samples = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  firstErrors: string[] = [];

  async time<T>(op: string, scheduledAt: number, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await run();
      this.add(op, performance.now() - scheduledAt);
      return value;
    } catch (error) {
      this.errors.set(op, (this.errors.get(op) ?? 0) + 1);
      if (this.firstErrors.length < 5) this.firstErrors.push(`${op}: ${(error as Error).message}`);
      return undefined;
    }
  }

  add(op: string, ms: number) {
    let list = this.samples.get(op);
    if (!list) this.samples.set(op, (list = []));
    list.push(ms);
  }

  count(op?: string): number {
    if (op) return this.samples.get(op)?.length ?? 0;
    return [...this.samples.values()].reduce((sum, list) => sum + list.length, 0);
  }

  errorCount(): number {
    return [...this.errors.values()].reduce((a, b) => a + b, 0);
  }
}

export type LatencySummary = { count: number; p50: number; p95: number; p99: number; max: number };

export function summarize(samples: number[]): LatencySummary {
  if (samples.length === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  const round = (x: number) => Math.round(x * 100) / 100;
  return { count: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1] as number) };
}

/** `concurrency` workers each run `iteration` back to back until the time is up. */
export async function closedLoop(concurrency: number, durationMs: number, iteration: (worker: number, recorder: Recorder) => Promise<void>) {
  const recorder = new Recorder();
  const startedAt = performance.now();
  const endsAt = startedAt + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < endsAt) await iteration(worker, recorder);
    }),
  );
  return { recorder, seconds: (performance.now() - startedAt) / 1000 };
}

/** Starts `iteration` at `ratePerSecond` (evenly spaced) for the duration, whatever the server's pace. */
export async function openLoop(ratePerSecond: number, durationMs: number, iteration: (index: number, scheduledAt: number, recorder: Recorder) => Promise<void>) {
  const recorder = new Recorder();
  const startedAt = performance.now();
  const total = Math.max(1, Math.floor((ratePerSecond * durationMs) / 1000));
  const running: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduledAt = startedAt + (i * 1000) / ratePerSecond;
    const wait = scheduledAt - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(iteration(i, scheduledAt, recorder));
  }
  await Promise.all(running);
  return { recorder, seconds: (performance.now() - startedAt) / 1000 };
}
