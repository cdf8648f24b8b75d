import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';
import { wallets } from '../db/schema';
import { liveProvider } from '../providers';
import { logBackgroundFailure } from '../db/availability';

/**
 * Live funding (docs/decisions.md §12): every live customer's wallet gets a dedicated bank account at the
 * provider; a payment into it credits the wallet (paystack-events.ts). Opened in the background, so a
 * user's creation never waits on the provider, and retried until it is open.
 */
/** After a failure the provider is left alone this long: a refusal repeated every poll helps nobody. */
const PAUSE_AFTER_FAILURE_MS = 60_000;
let pausedUntil = 0;

export async function openFundingAccounts(db: Db, limit = 20): Promise<number> {
  const provider = liveProvider();
  if (!provider || Date.now() < pausedUntil) return 0;
  const waiting = await queryRows<{ wallet_id: string; email: string; first_name: string; last_name: string; phone: string | null }>(
    db,
    sql`select w.id as wallet_id, u.email, u.first_name, u.last_name, u.phone as phone
      from wallets w join users u on u.id = w.user_id join clients c on c.id = w.client_id
      where c.mode = 'live' and w.provider_account is null
      order by w.created_at limit ${limit}`,
  );
  let opened = 0;
  for (const w of waiting) {
    try {
      const account = await provider.openFundingAccount({ email: w.email, firstName: w.first_name, lastName: w.last_name, phone: w.phone, walletId: w.wallet_id });
      await db
        .update(wallets)
        .set({
          providerAccount: { provider: 'paystack', account_number: account.accountNumber, account_name: account.accountName, bank_name: account.bankName, customer_code: account.customerCode },
          updatedAt: new Date(),
        })
        .where(eq(wallets.id, w.wallet_id));
      opened++;
    } catch (error) {
      logBackgroundFailure({ msg: 'funding account not opened; retried in a minute', wallet: w.wallet_id }, error);
      pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
      break;
    }
  }
  return opened;
}
