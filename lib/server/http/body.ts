import 'server-only';
import { MAX_UPLOAD_BYTES } from '@/lib/contracts/files';
import { AppError } from '../app-error';

export const MAX_JSON_BYTES = 1024 * 1024;
/** Room for the multipart boundaries and headers around a file at the limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

export function bodyLimit(request: Request): number {
  return /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '') ? MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD : MAX_JSON_BYTES;
}

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', limit > MAX_JSON_BYTES ? `Files are limited to ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.` : 'JSON bodies are limited to 1 MB.');

/**
 * A body declared over the limit, up to this size, is read off and dropped before the 413: a client still sending it
 * would otherwise find the connection closed under it and never read the answer. Past it, the answer goes at once.
 */
const READ_OFF_LIMIT = 64 * 1024 * 1024;

async function readOff(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  while (!(await reader.read()).done);
}

/** Reads the body without ever holding more than the limit, whatever Content-Length claims. */
export async function readBodyBytes(request: Request, limit = bodyLimit(request)): Promise<Buffer> {
  const declaredLength = request.headers.get('content-length');
  const declared = Number(declaredLength ?? '0');
  if (declared > limit) {
    if (declared <= READ_OFF_LIMIT && request.body) await readOff(request.body);
    throw tooLarge(limit);
  }
  // A declared length within the limit bounds the body: the HTTP parser delivers no more than it. Read whole,
  // the Node adapter takes it straight off the connection instead of building a web stream for it.
  if (declaredLength !== null && Number.isSafeInteger(declared) && declared >= 0) return Buffer.from(await request.arrayBuffer());
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
