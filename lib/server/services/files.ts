import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FileRecord } from '@/lib/contracts/records';
import { declaredTypeMatches, sniffFileType } from '@/lib/escrow/file-types';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import { AppError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { iso } from '../records/iso';

/** Sniffs, hashes and stores a proof; the seed and the upload operation (lib/api/routes/files.ts) both come through here. */
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
  return findFile(db, fileId, client.id);
}

/** Any client's file, for the operator's dispute team: what it may open is checked by the dashboard, against the case. */
export async function readFileOfAnyClient(db: Db, fileId: string) {
  return findFile(db, fileId);
}

async function findFile(db: Db, fileId: string, clientId?: string) {
  const [file] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), clientId === undefined ? undefined : eq(files.clientId, clientId)))
    .limit(1);
  if (!file) throw notFound('File', fileId);
  return file;
}
