import { OperatorDisputesQuery } from '@/lib/contracts/disputes';
import { readQuery, withOperator } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { operatorDisputes } from '@/lib/server/services/dispute-process';

export const GET = withOperator(async ({ db, request, baseUrl }) => {
  const query = readQuery(request, OperatorDisputesQuery);
  return ok('Disputes retrieved successfully', await operatorDisputes(db, { ...query, sort: query.sort }, baseUrl));
});
