import 'server-only';
import pino, { type Logger, type LoggerOptions } from 'pino';
import { loggableError } from './log-error';

export type { Logger };

/**
 * Where a key could sit in a logged object: a second guard behind the callers, who never log one
 * (lib/server/log-error.ts scrubs what an error carries).
 */
const REDACTED_PATHS = ['authorization', 'cookie', 'password', 'secret', 'secret_key', 'api_key', 'token'].flatMap((key) => [
  key,
  `*.${key}`,
  `headers.${key}`,
  `*.headers.${key}`,
]);

const OPTIONS: LoggerOptions = {
  // The lines as they always read: `"level":"info"`, no pid or host (a worker says which it is where it matters).
  base: null,
  formatters: { level: (label) => ({ level: label }) },
  timestamp: pino.stdTimeFunctions.isoTime,
  // An error is logged by its class, code and statement, never the query's parameters.
  serializers: { error: loggableError, err: loggableError },
  redact: { paths: REDACTED_PATHS, censor: '[secret]' },
};

/**
 * Plain JSON lines: info and below to stdout, written by pino's asynchronous destination (lines of the
 * same moment go out in one write, and what is still buffered is written on exit); errors through
 * console.error, where Next's dev overlay and a test listening to the console hear them.
 */
function jsonLines(): Logger {
  const stderr = { write: (line: string) => console.error(line.trimEnd()) };
  return pino(
    OPTIONS,
    pino.multistream(
      [
        { level: 'trace', stream: pino.destination({ dest: 1, sync: false }) },
        { level: 'error', stream: stderr },
      ],
      { dedupe: true },
    ),
  );
}

function build(): Logger {
  // NODE_ENV is Next's setting (`next dev` sets it, and its bundles inline it), not one of ours in env.ts.
  if (process.env.NODE_ENV === 'development') return pino({ ...OPTIONS, transport: { target: 'pino-pretty' } });
  return jsonLines();
}

const holder = globalThis as typeof globalThis & { __escrowLogger?: Logger };

/**
 * The server's one logger. Every line leads with its message (`log.info({ msg: 'listening', url })`):
 * tests and the bench find lines by `"msg":"…"` and the first field after it.
 */
export const log: Logger = (holder.__escrowLogger ??= build());
