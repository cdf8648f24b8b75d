import 'server-only';

/**
 * The request log: one JSON line per request on stdout, written together once per turn of the event
 * loop. A console.log per request was a write system call per request, and Next wraps the console in
 * its own layers: together about 4% of the server's CPU on a cheap read. A line reaches stdout at most
 * one turn after its request ends; one still pending when the process exits is written on the way out.
 */
let pending: string[] = [];

function flush(): void {
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  process.stdout.write(text);
}

process.once('exit', flush);

export function logRequestLine(entry: Record<string, unknown>): void {
  pending.push(JSON.stringify(entry));
  if (pending.length === 1) setImmediate(flush);
}
