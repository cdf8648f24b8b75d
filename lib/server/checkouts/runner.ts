import 'server-only';
import type { PolledRunner } from '../background-poller';
import { verifyDuePaystackCheckouts } from './paystack';
import { expireDueCheckouts } from './settle';

/**
 * Checkouts in the background (docs/decisions.md §16): PENDING ones expire 30 minutes after creation on their
 * client's clock, and Paystack's still PENDING after a while are asked about, so a lost webhook is recovered.
 */
export const checkoutRunner: PolledRunner = {
  name: 'checkout runner',
  intervalMs: (settings) => settings.ESCROW_PAYOUT_POLL_MS,
  runOnce: async ({ db }) => {
    const wallNow = new Date();
    await expireDueCheckouts(db, { wallNow });
    await verifyDuePaystackCheckouts(db, wallNow);
  },
};
