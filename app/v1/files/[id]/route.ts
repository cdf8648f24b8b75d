import { idParam, withClient } from '@/lib/server/http/route';
import { readFile } from '@/lib/server/services/files';

export const GET = withClient<{ id: string }>(async ({ db, client, params }) => {
  const file = await readFile(db, client, idParam(params.id, 'file_id'));
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
});
