import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { MAX_UPLOAD_BYTES, UPLOAD_FIELD, UploadFileName } from '@/lib/contracts/files';
import type { FileRecord } from '@/lib/contracts/records';
import { declaredTypeMatches, sniffFileType } from '@/lib/escrow/file-types';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import { AppError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { readBodyBytes } from '../http/body';
import { iso } from '../records/iso';

export async function uploadFile(db: Db, client: ClientRow, request: Request, now: Date, baseUrl: string): Promise<FileRecord> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Upload the file as multipart/form-data in a field named "${UPLOAD_FIELD}".`);
  }
  const body = await readBodyBytes(request);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The multipart body could not be read.', [{ field: UPLOAD_FIELD, message: 'malformed multipart body' }]);
  }
  const file = form.get(UPLOAD_FIELD);
  if (!(file instanceof File)) {
    throw new AppError('VALIDATION_ERROR', `Send the file in a multipart field named "${UPLOAD_FIELD}".`, [{ field: UPLOAD_FIELD, message: 'is required' }]);
  }
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `Files are limited to ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`);
  if (file.size === 0) throw new AppError('VALIDATION_ERROR', 'The file is empty.', [{ field: UPLOAD_FIELD, message: 'is empty' }]);
  const name = UploadFileName.safeParse(file.name);
  if (!name.success) {
    const message = `name ${name.error.issues[0]?.message}`;
    throw new AppError('VALIDATION_ERROR', `Invalid request: ${UPLOAD_FIELD} ${message}.`, [{ field: UPLOAD_FIELD, message }]);
  }
  return storeFile(db, client.id, { bytes: Buffer.from(await file.arrayBuffer()), declaredType: file.type, filename: file.name }, now, baseUrl);
}

/** Sniffs, hashes and stores a proof; the seed and the upload route both come through here. */
export async function storeFile(
  db: Db,
  clientId: string,
  upload: { bytes: Buffer; declaredType: string; filename: string },
  now: Date,
  baseUrl: string,
): Promise<FileRecord> {
  const { bytes } = upload;
  const sniffed = sniffFileType(bytes);
  if (!sniffed || !declaredTypeMatches(upload.declaredType, sniffed)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      sniffed
        ? `The file says it is ${upload.declaredType} but its content is ${sniffed.mime}.`
        : 'Only images, PDF documents and common video or audio files can be uploaded as proof.',
    );
  }
  const id = randomUUID();
  const filename = (upload.filename || `proof.${sniffed.extension}`).slice(0, 200);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db.insert(files).values({ id, clientId, filename, contentType: sniffed.mime, size: bytes.byteLength, sha256, content: bytes, createdAt: now });
  return { id, url: `${baseUrl}/v1/files/${id}`, content_type: sniffed.mime, size: bytes.byteLength, sha256, filename, created_at: iso(now) };
}

export async function readFile(db: Db, client: ClientRow, fileId: string) {
  const [file] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.clientId, client.id)))
    .limit(1);
  if (!file) throw notFound('File', fileId);
  return file;
}
