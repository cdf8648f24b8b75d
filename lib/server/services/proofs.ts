import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { files } from '../db/schema';
import { AppError } from '../app-error';

const STORED_FILE_PATH = /\/v1\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function storedFileId(url: string): string | undefined {
  try {
    return STORED_FILE_PATH.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Proofs are https URLs of the integrator's own storage, or this client's stored files as this service's
 * URLs (docs/decisions.md §8): http or https, on the host this request reached (the port is not compared, so URLs
 * stored before a restart on another port stay valid). Nothing else is a proof: no other scheme (a
 * `javascript:` URL would run in the dashboard of whoever opens it), no plain-http URL elsewhere.
 */
export async function assertProofs(db: DbOrTx, a: { clientId: string; field: string; urls: string[]; baseUrl: string }): Promise<void> {
  const { clientId, field, urls } = a;
  const ownHost = parsedUrl(a.baseUrl)?.hostname;
  const fileIds: string[] = [];
  for (const url of urls) {
    const parsed = parsedUrl(url);
    const fileId = storedFileId(url);
    const ownFile = fileId !== undefined && parsed?.protocol === 'http:' && parsed.hostname === ownHost;
    if (parsed?.protocol !== 'https:' && !ownFile) {
      throw new AppError('VALIDATION_ERROR', `${field}: ${url} must be a file uploaded with POST /v1/files (${a.baseUrl}/v1/files/…) or an https URL.`, [
        { field, message: 'must be a /v1/files URL of this service or an https URL' },
      ]);
    }
    if (fileId) fileIds.push(fileId);
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
