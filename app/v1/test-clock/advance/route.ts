import { AdvanceClockBody } from '@/lib/contracts/operator';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { advanceTestClock } from '@/lib/server/services/test-clock';

export const POST = withClient(async ({ db, client, request }) =>
  ok('Test clock advanced; lapsed deadlines have acted', await advanceTestClock(db, client, await readJson(request, AdvanceClockBody))),
);
