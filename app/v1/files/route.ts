import { withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { uploadFile } from '@/lib/server/services/files';

export const POST = withClient(async ({ db, client, request, now, baseUrl }) =>
  ok('File uploaded successfully', await uploadFile(db, client, request, now, baseUrl)),
);
