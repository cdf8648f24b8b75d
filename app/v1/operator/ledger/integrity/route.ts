import { withOperator } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { ledgerIntegrity } from '@/lib/server/services/ledger-integrity';

export const GET = withOperator(async ({ db }) => ok('Ledger integrity checked', await ledgerIntegrity(db)));
