/**
 * Keeps a multi-worker server's keep-alive connections spread over its request workers.
 *
 * Each worker accepts its own connections from the shared socket (workers.ts says why), and a client
 * that opens its connections at once (a load balancer filling its pool, the bench's driver) finds one
 * worker awake: that worker accepts nearly all of them, and serves nearly everything while the other core idles.
 *
 * So each request worker tells the primary how many connections it holds; the primary answers with the
 * fair share (the workers' total over their number, rounded up). A worker holding more than one over its
 * share answers its next requests with `Connection: close`, one connection per request, until it does not;
 * the client opens a new connection, which the worker with room to spare (the one not busy) accepts.
 * Nothing is cut off mid-request, and a server of one worker is never asked to let go.
 */
import cluster from 'node:cluster';
import type http from 'node:http';

/** How often a worker reports its connections. */
const REPORT_EVERY_MS = 250;

type Report = { escrow: 'connections'; open: number };
type Share = { escrow: 'connection-share'; share: number };

const isReport = (message: unknown): message is Report => (message as Report | undefined)?.escrow === 'connections';
const isShare = (message: unknown): message is Share => (message as Share | undefined)?.escrow === 'connection-share';

/** The connections each worker should hold: all of them over the workers, rounded up. */
function fairShare(openByWorker: Map<number, number>): number {
  let total = 0;
  for (const open of openByWorker.values()) total += open;
  return Math.ceil(total / openByWorker.size);
}

/**
 * The primary's part: hears each request worker's count and answers it with the share. A worker that has
 * exited is forgotten (`forget`), so its connections no longer count.
 */
export function shareConnections(): { heard: (workerId: number, message: unknown, reply: (share: Share) => void) => void; forget: (workerId: number) => void } {
  const openByWorker = new Map<number, number>();
  return {
    heard: (workerId, message, reply) => {
      if (!isReport(message)) return;
      openByWorker.set(workerId, message.open);
      reply({ escrow: 'connection-share', share: fairShare(openByWorker) });
    },
    forget: (workerId) => void openByWorker.delete(workerId),
  };
}

/**
 * A request worker's part, on its HTTP server: counts the connections it holds, reports them to the
 * primary (when there is one), and returns the check each request passes through, which marks the
 * response `Connection: close` while the worker holds more than one over its share.
 */
export function balanceConnections(server: http.Server): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const send = cluster.isWorker ? process.send?.bind(process) : undefined;
  if (!send) return () => {};
  let open = 0;
  // Connections already told to close, still open until their response is written.
  let releasing = 0;
  let share = Infinity;
  const released = new WeakSet<object>();
  server.on('connection', (socket) => {
    open++;
    socket.once('close', () => {
      open--;
      if (released.has(socket)) releasing--;
    });
  });
  process.on('message', (message) => {
    if (isShare(message)) share = message.share;
  });
  setInterval(() => send({ escrow: 'connections', open } satisfies Report), REPORT_EVERY_MS).unref();
  return (req, res) => {
    // One connection over the share is no reason to make a client reconnect.
    if (open - releasing <= share + 1 || released.has(req.socket)) return;
    released.add(req.socket);
    releasing++;
    res.setHeader('connection', 'close');
  };
}
