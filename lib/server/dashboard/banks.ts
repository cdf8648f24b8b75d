import 'server-only';
import type { Bank } from '@/lib/contracts/dashboard';
import { NIGERIAN_BANKS } from '@/lib/escrow/banks';

/**
 * The banks an account can be saved at, for the forms that save one: the domain's own list, the one
 * GET /v1/wallets/banks answers with, so no page load asks the API for it (the API still checks each bank code).
 */
export const BANK_CHOICES: Bank[] = NIGERIAN_BANKS.map(({ code, name }) => ({ code, name }));
