import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { files } from '../db/schema';
import { AppError } from '../http/app-error';

const STORED_FILE_PATH = /\/v1\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function storedFileId(url: string): string | undefined {
  try {
    return STORED_FILE_PATH.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Proofs are this client's stored files, or https URLs of the integrator's own storage (decisions §8). */
export async function assertProofs(db: DbOrTx, clientId: string, field: string, urls: string[]): Promise<void> {
  const fileIds: string[] = [];
  for (const url of urls) {
    const fileId = storedFileId(url);
    if (fileId) fileIds.push(fileId);
    else if (new URL(url).protocol !== 'https:') {
      throw new AppError('VALIDATION_ERROR', `${field}: ${url} must be a file uploaded with POST /v1/files or an https URL.`, [
        { field, message: 'must be a /v1/files URL or an https URL' },
      ]);
    }
  }
  if (fileIds.length === 0) return;
  const found = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.clientId, clientId), inArray(files.id, fileIds)));
  const known = new Set(found.map((f) => f.id));
  const missing = fileIds.find((id) => !known.has(id));
  if (missing) {
    throw new AppError('VALIDATION_ERROR', `${field}: file ${missing} was not found among your uploads.`, [
      { field, message: `file ${missing} was not found` },
    ]);
  }
}
