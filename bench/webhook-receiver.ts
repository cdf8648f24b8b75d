/**
 * The webhook storm's receiver (bench/webhook-storm.ts), a process of its own: it stands for the
 * integrator's machine, so it runs at the lowest priority and reads no more of each body than the
 * envelope's first fields, leaving this machine's CPU to the server being measured. It answers 200 at once
 * and checks each transaction's order as events arrive; it sends its address when listening and its tally
 * when asked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';

export type ReceiverTally = { received: number; outOfOrder: number; duplicates: number };

/** The envelope's fields before `data`, in the dispatcher's order (lib/contracts webhookPayload). */
const ENVELOPE = /^\{"id":"([^"]+)".*?"sequence":(null|\d+),"transaction_id":(?:null|"([^"]+)")/;

os.setPriority(19);
const seen = new Set<string>();
const lastSequence = new Map<string, number>();
const tally: ReceiverTally = { received: 0, outOfOrder: 0, duplicates: 0 };

const server = http.createServer((request, response) => {
  let head = '';
  request.on('data', (chunk: Buffer) => {
    if (head.length < 400) head += chunk.toString('utf8', 0, 400);
  });
  request.on('end', () => {
    const [, id, sequence, transactionId] = ENVELOPE.exec(head) ?? [];
    if (!id) throw new Error(`not an event: ${head.slice(0, 200)}`);
    tally.received++;
    if (seen.has(id)) tally.duplicates++;
    seen.add(id);
    if (transactionId && sequence !== 'null') {
      const last = lastSequence.get(transactionId) ?? 0;
      if (Number(sequence) < last) tally.outOfOrder++;
      else lastSequence.set(transactionId, Number(sequence));
    }
    response.writeHead(200, { 'content-length': '0' }).end();
  });
});

server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/escrow-events` }));
process.on('message', (message) => {
  if (message === 'tally') process.send?.({ tally });
  if (message === 'stop') server.close(() => process.exit(0));
});
