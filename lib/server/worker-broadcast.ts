import 'server-only';
import { env } from './env';

/**
 * Word between the worker processes of one server (scripts/production-server/workers.ts relays it): a
 * worker says something to all the others and waits until each has acted on it. Outside a cluster (one
 * process, or PGlite) there is no one else to tell and a broadcast returns at once.
 */
export type BroadcastMessage = { escrow: 'broadcast'; topic: string; payload: unknown; request: number };
export type BroadcastDone = { escrow: 'broadcast-done'; request: number };
/** The primary relays each broadcast under a request number of its own, which the ack echoes. */
export type BroadcastAck = { escrow: 'broadcast-ack'; request: number };

const holder = globalThis as typeof globalThis & {
  __escrowBroadcast?: { handlers: Map<string, (payload: unknown) => void>; waiting: Map<number, () => void>; next: number };
};

function state() {
  if (!holder.__escrowBroadcast) {
    const s = { handlers: new Map<string, (payload: unknown) => void>(), waiting: new Map<number, () => void>(), next: 1 };
    holder.__escrowBroadcast = s;
    process.on('message', (message: Partial<BroadcastMessage | BroadcastDone>) => {
      if (message?.escrow === 'broadcast' && typeof message.topic === 'string' && typeof message.request === 'number') {
        s.handlers.get(message.topic)?.(message.payload);
        process.send?.({ escrow: 'broadcast-ack', request: message.request } satisfies BroadcastAck);
      } else if (message?.escrow === 'broadcast-done' && typeof message.request === 'number') {
        s.waiting.get(message.request)?.();
      }
    });
  }
  return holder.__escrowBroadcast;
}

/** Acts on a topic when another worker broadcasts it. Register at start, before any worker can broadcast. */
export function onBroadcast(topic: string, handler: (payload: unknown) => void): void {
  state().handlers.set(topic, handler);
}

/**
 * Tells every other worker, and resolves once all of them have acted, or after `atMostMs` (a worker that
 * died or hangs must not hold the caller up; callers pick the time after which acting no longer matters).
 */
export function broadcast(topic: string, payload: unknown, atMostMs: number): Promise<void> {
  if (!process.send || env().ESCROW_WORKER === undefined) return Promise.resolve();
  const s = state();
  const request = s.next++;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      s.waiting.delete(request);
      resolve();
    };
    const timer = setTimeout(done, atMostMs);
    s.waiting.set(request, done);
    process.send!({ escrow: 'broadcast', topic, payload, request } satisfies BroadcastMessage);
  });
}
