import { withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { testClock } from '@/lib/server/services/test-clock';

export const GET = withClient(async ({ client }) => ok('Test clock retrieved', testClock(client, new Date())));
