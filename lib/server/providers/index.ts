import 'server-only';
import { AppError } from '../app-error';
import type { ClientRow } from '../db/schema';
import { env } from '../env';
import { paystackProvider } from './paystack/adapter';
import type { PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox';

let paystack: PaymentProvider | undefined;

/** The live provider this server is configured with, if any (docs/decisions.md §12). */
export function liveProvider(): PaymentProvider | undefined {
  const settings = env();
  if (settings.ESCROW_PAYMENT_PROVIDER !== 'paystack' || !settings.PAYSTACK_SECRET_KEY) return undefined;
  paystack ??= paystackProvider({ secretKey: settings.PAYSTACK_SECRET_KEY, baseUrl: settings.PAYSTACK_BASE_URL, dedicatedAccountBank: settings.PAYSTACK_DEDICATED_ACCOUNT_BANK });
  return paystack;
}

/** A provider by the name a payout keeps. */
export function providerNamed(name: 'sandbox' | 'paystack'): PaymentProvider {
  if (name === 'sandbox') return sandboxProvider;
  const provider = liveProvider();
  if (!provider) throw new Error('a Paystack payout is on record but ESCROW_PAYMENT_PROVIDER is no longer paystack');
  return provider;
}

/** Test clients always use the sandbox; live money needs a real provider: 409 naming what to set. */
export function moneyProviderFor(client: Pick<ClientRow, 'mode'>): PaymentProvider {
  if (client.mode === 'test') return sandboxProvider;
  const provider = liveProvider();
  if (!provider) {
    throw new AppError(
      'PROVIDER_NOT_CONFIGURED',
      'Live payouts and funding need a payment provider: set ESCROW_PAYMENT_PROVIDER=paystack and PAYSTACK_SECRET_KEY on the server.',
    );
  }
  return provider;
}

/** Name enquiry: the live provider for live clients when there is one, else the sandbox's stable names. */
export function nameEnquiryProviderFor(client: Pick<ClientRow, 'mode'>): PaymentProvider {
  return (client.mode === 'live' ? liveProvider() : undefined) ?? sandboxProvider;
}
