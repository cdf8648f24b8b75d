import { withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { listSecretKeys } from '@/lib/server/services/api-keys';

// Key expiry is real time, not a sandbox test clock's.
export const GET = withClient(async ({ db, client }) => ok('API keys retrieved successfully', await listSecretKeys(db, client.id, new Date())));
