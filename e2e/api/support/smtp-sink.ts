/**
 * A real SMTP server on loopback (the smtp-server package) that keeps what it receives, for the email
 * suite: it can refuse the next messages with a 451, or hold one after its whole body has arrived and
 * before answering, as a server whose client dies mid-send sees it.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedEmail = { from: string; to: string[]; subject: string; text: string; html: string; raw: string };
type Hold = { received: Promise<ReceivedEmail>; release: () => void };

export type SmtpSink = {
  url: string;
  received: ReceivedEmail[];
  /** Messages refused with 451 so far. */
  refusals: number;
  refuseNext: (count: number) => void;
  holdNext: () => Hold;
  close: () => Promise<void>;
};

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), as nodemailer writes a non-ASCII subject. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'quoted-printable':
      return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

type Part = { headers: Record<string, string>; body: string };

function splitPart(raw: string): Part {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** Enough MIME for what nodemailer sends: a single part, or multipart/alternative of text and HTML. */
export function parseMessage(raw: string, envelope: { from: string; to: string[] }): ReceivedEmail {
  const top = splitPart(raw);
  const parts: Part[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(top.headers['content-type'] ?? '')?.[1];
  if (boundary) {
    for (const chunk of top.body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      parts.push(splitPart(chunk.replace(/^\r?\n/, '')));
    }
  } else parts.push(top);
  const of = (type: string) => {
    const part = parts.find((p) => (p.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(type));
    return part ? decodeBody(part.body, part.headers['content-transfer-encoding']).replace(/\r\n/g, '\n').trimEnd() : '';
  };
  return { ...envelope, subject: decodeWords(top.headers.subject ?? ''), text: of('text/plain'), html: of('text/html'), raw };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let refuse = 0;
  let hold: { resolveReceived: (email: ReceivedEmail) => void; released: Promise<void> } | null = null;
  const sink: SmtpSink = {
    url: '',
    close: async () => undefined,
    received: [],
    refusals: 0,
    refuseNext: (count) => {
      refuse = count;
    },
    holdNext: () => {
      let resolveReceived!: (email: ReceivedEmail) => void;
      let release!: () => void;
      const received = new Promise<ReceivedEmail>((resolve) => (resolveReceived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { resolveReceived, released };
      return { received, release };
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          sink.refusals++;
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          return;
        }
        const email = parseMessage(Buffer.concat(chunks).toString('utf8'), {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        // Received in full: the sender may die before it hears so, and must not send it again.
        sink.received.push(email);
        const held = hold;
        if (!held) return callback();
        hold = null;
        held.resolveReceived(email);
        void held.released.then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
