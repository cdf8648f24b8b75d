/**
 * The webhook storm: a client's receiver was away and comes back to find 100,000 events
 * waiting for it. Measures deliveries per second to a receiver on loopback, that each transaction's
 * events arrive in sequence order, and the API's latency meanwhile against its quiet value.
 *
 *   npx tsx --conditions=react-server bench/webhook-storm.ts --events=100000 [--rate=50]
 *
 * On PostgreSQL (BENCH_DATABASE_URL), in a database of its own that it drops afterwards. The generator
 * makes the client's history; the storm gives each of its oldest `events` events one pending delivery to
 * an endpoint registered through the API, written by the outbox's own writer, at once.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { deliveriesOf } from '../lib/server/events/record-event';
import { cliFlags } from './generate-data';
import type { LatencySummary } from './load';
import { onGeneratedDatabase, readsAroundStorm, startStormServer, whenDone } from './storm-harness';
import type { ReceiverTally } from './webhook-receiver';

/** The generator's usual mix makes about this many events per transaction; a few more are made than asked for. */
const EVENTS_PER_TRANSACTION = 4;

export type WebhookStormResult = {
  events: number;
  received: number;
  secondsUntilAllDelivered: number | null;
  deliveriesPerSecond: number;
  /** Arrivals of an event whose transaction had already sent a later one. */
  outOfOrder: number;
  /** Arrivals of an event already received (delivery is at least once; a healthy run has none). */
  duplicates: number;
  failed: number;
  quiet: LatencySummary;
  storm: LatencySummary;
  /** GET milestone's p99 in each round (bench/storm-harness.ts): the target reads their medians. */
  quietRounds: number[];
  stormRounds: number[];
  errors: number;
};

/** The receiver (bench/webhook-receiver.ts) in a process of its own; its address, its tally, and a way to stop it. */
async function startReceiver() {
  const child = fork(path.join(__dirname, 'webhook-receiver.ts'), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Asked every 200 ms through a storm: each wait takes its listeners away again.
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the receiver exited with ${code}`));
      const listen = (message: Record<string, T>) => {
        if (!(key in message)) return;
        child.off('message', listen);
        child.off('exit', exited);
        resolve(message[key]!);
      };
      child.once('exit', exited);
      child.on('message', listen);
    });
  const url = await next<string>('url');
  return {
    url,
    tally: () => {
      child.send('tally');
      return next<ReceiverTally>('tally');
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

export async function webhookStorm(opts: { events: number; ratePerSecond: number; quietMs?: number; timeoutMs?: number }): Promise<WebhookStormResult> {
  const dataset = { clients: 1, bigClientTransactions: Math.ceil(opts.events / EVENTS_PER_TRANSACTION), otherClientTransactions: 1, webhooks: false };
  return onGeneratedDatabase(dataset, async ({ databaseUrl, connection, db, client }) => {
    const milestoneIds = (await connection`select id from milestones where client_id = ${client.id} limit 2000`).map((r) => String(r.id));
    const receiver = await startReceiver();
    const server = await startStormServer(databaseUrl);
    try {
      const registered = await fetch(`${server.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: client.secretKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, description: 'webhook storm' }),
      });
      if (registered.status !== 201 && registered.status !== 200) throw new Error(`register → ${registered.status} ${await registered.text()}`);
      const pending = async () => {
        const [row] = (await db.execute(sql`select count(*)::int as n from webhook_deliveries where status = 'pending'`)) as unknown as Array<{ n: number }>;
        return row?.n ?? 0;
      };
      const reads = await readsAroundStorm(server, client, milestoneIds, opts, async () => {
        const started = performance.now();
        const oldest = sql`(select id, created_at, transaction_id, sequence from events where client_id = ${client.id}::uuid order by created_at, sequence limit ${opts.events})`;
        await db.execute(deliveriesOf(client.id, oldest));
        const [{ n: total } = { n: 0 }] = (await db.execute(sql`select count(*)::int as n from webhook_deliveries`)) as unknown as Array<{ n: number }>;
        // The receiver's tally first: counting the pending deliveries reads the whole table, CPU the server being
        // measured would lack. Once every event has arrived, the database says when the last result is recorded.
        const arrived = await whenDone(async () => (await receiver.tally()).received >= total, opts.timeoutMs ?? 600_000);
        const deliveredAt = arrived === null ? null : await whenDone(async () => (await pending()) === 0, opts.timeoutMs ?? 600_000);
        return deliveredAt === null ? null : (deliveredAt - started) / 1000;
      });
      const [counted] = (await db.execute(sql`select count(*)::int as events, count(*) filter (where status = 'failed')::int as failed from webhook_deliveries`)) as unknown as Array<{ events: number; failed: number }>;
      const seconds = reads.outcome;
      const tally = await receiver.tally();
      return {
        events: counted?.events ?? 0,
        received: tally.received,
        secondsUntilAllDelivered: seconds === null ? null : Number(seconds.toFixed(2)),
        deliveriesPerSecond: seconds ? Math.round((counted?.events ?? 0) / seconds) : 0,
        outOfOrder: tally.outOfOrder,
        duplicates: tally.duplicates,
        failed: counted?.failed ?? 0,
        quiet: reads.quiet,
        storm: reads.storm,
        quietRounds: reads.quietRounds,
        stormRounds: reads.stormRounds,
        errors: reads.errors,
      };
    } finally {
      await server.stop();
      await receiver.stop();
    }
  });
}

async function main() {
  const args = cliFlags();
  const result = await webhookStorm({ events: Number(args.get('events') ?? 20_000), ratePerSecond: Number(args.get('rate') ?? 50) });
  console.log(JSON.stringify(result, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
