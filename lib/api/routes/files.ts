import 'server-only';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { MAX_UPLOAD_BYTES, UPLOAD_FIELD, UploadFileName } from '@/lib/contracts/files';
import * as R from '@/lib/contracts/records';
import { AppError } from '@/lib/server/app-error';
import { readFile, storeFile } from '@/lib/server/services/files';
import type { ApiEnv } from '../env';
import { baseUrl } from '../middleware/base-url';
import { bodyBytes } from '../middleware/body';
import { BASE_ERRORS, docsOf, errorResponses, jsonResponse, middlewareOf, pathIds, type OperationDocs } from '../operation';
import { ok, UNKNOWN_FIELD_MESSAGE } from '../respond';
import { router } from '../router';

const uploadDocs: OperationDocs = {
  operationId: 'uploadFile', tag: 'Files', auth: 'client',
  summary: 'Upload a proof (multipart field "file")',
  description: 'Images, PDF and common video/audio only, checked by content; 10 MB max. Use the returned url in proofs.',
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'UNKNOWN_FIELD', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
};

const uploadOp = createRoute({
  method: 'post',
  path: '/files',
  ...docsOf(uploadDocs),
  request: {
    body: {
      required: true,
      // A plain schema, not zod: the handler reads the multipart body itself, within the upload limit.
      content: { 'multipart/form-data': { schema: { type: 'object', required: [UPLOAD_FIELD], properties: { [UPLOAD_FIELD]: { type: 'string', format: 'binary' } } } } },
    },
  },
  responses: { ...jsonResponse(R.FileRecord), ...errorResponses(uploadDocs.errors) },
  middleware: middlewareOf('client'),
});

const readDocs: OperationDocs = {
  operationId: 'readFile', tag: 'Files', auth: 'client',
  summary: 'Read a stored file back',
  description: 'The bytes of a file you uploaded, under the content type it was stored with; a file of another client is 404.',
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
};
const fileId = pathIds({ id: 'file_id' });

/** A stored file's answer in the reference: its bytes, under the type it was stored with. */
export const FILE_BYTES = { 200: { description: 'The stored bytes', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } } };

const readOp = createRoute({
  method: 'get',
  path: '/files/{id}',
  ...docsOf(readDocs),
  request: { params: fileId },
  responses: { ...FILE_BYTES, ...errorResponses(readDocs.errors) },
  middleware: middlewareOf('client', { params: fileId }),
});

/** A stored file as the reads answer it: its sniffed type, shown inline under a safe name, never sniffed again by the browser. */
export function fileResponse(file: { content: Buffer; contentType: string; size: number; filename: string; sha256: string }): Response {
  return new Response(new Uint8Array(file.content), {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.size),
      'content-disposition': `inline; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=3600',
      etag: `"${file.sha256}"`,
    },
  });
}

/** The upload's file, its declared type and name, from a multipart body read within the upload limit. */
async function uploadOf(c: Context<ApiEnv>): Promise<{ bytes: Buffer; declaredType: string; filename: string }> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Upload the file as multipart/form-data in a field named "${UPLOAD_FIELD}".`);
  }
  const body = await bodyBytes(c);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The multipart body could not be read.', [{ field: UPLOAD_FIELD, message: 'malformed multipart body' }]);
  }
  const file = form.get(UPLOAD_FIELD);
  const unknown = [...new Set(form.keys())].filter((name) => name !== UPLOAD_FIELD);
  if (unknown.length > 0) {
    // As with JSON bodies (respond.ts): the unknown fields first, then a missing file.
    const missing = file instanceof File ? [] : [{ field: UPLOAD_FIELD, message: 'is required' }];
    const errors = [...unknown.map((field) => ({ field, message: UNKNOWN_FIELD_MESSAGE })), ...missing];
    throw new AppError('UNKNOWN_FIELD', `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (an upload has only the field "${UPLOAD_FIELD}").`, errors);
  }
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
  return { bytes: Buffer.from(await file.arrayBuffer()), declaredType: file.type, filename: file.name };
}

export const fileRoutes = router()
  .openapi(uploadOp, async (c) => ok('File uploaded successfully', await storeFile(c.var.db, c.var.client.id, await uploadOf(c), c.var.now, baseUrl(c))))
  .openapi(readOp, async (c) => fileResponse(await readFile(c.var.db, c.var.client, c.req.valid('param').id)));
