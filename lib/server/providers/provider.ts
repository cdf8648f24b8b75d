import 'server-only';
import type { Bank } from '@/lib/escrow/banks';

/**
 * The payment provider (docs/decisions.md §12): name enquiry, payouts and live funding behind one interface.
 * The sandbox (providers/sandbox.ts) needs nothing and serves every test-mode client; Paystack
 * (providers/paystack/) serves live clients when ESCROW_PAYMENT_PROVIDER=paystack.
 */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'paystack';

  /** The account holder's name as the bank has it; throws ProviderError('ACCOUNT_NOT_FOUND') when the bank knows no such account. */
  resolveAccountName(accountNumber: string, bank: Bank): Promise<string>;

  /**
   * Sends a payout. `reference` is ours (PO_…) and the provider refuses a second transfer with it, so a
   * send repeated after a crash can never pay twice. `recipientCode` is what an earlier send returned for
   * the same bank account (kept on the account), to skip creating the recipient again.
   */
  sendPayout(payout: PayoutInstruction): Promise<PayoutSent>;

  /** What the provider knows of a payout by our reference; `unknown` when it never received it. */
  checkPayout(reference: string): Promise<PayoutOutcome>;

  /** A dedicated bank account that funds this customer's wallet when paid into (live funding). */
  openFundingAccount(customer: FundingCustomer): Promise<FundingAccount>;

  /** A hosted payment page for a checkout (docs/decisions.md §16); `reference` is ours (CO_…). */
  startCheckout(checkout: CheckoutInstruction): Promise<{ authorizationUrl: string }>;

  /** What the provider knows of a checkout's payment by our reference. */
  checkCheckout(reference: string): Promise<CheckoutOutcome>;
}

export type CheckoutInstruction = { reference: string; amountKobo: number; email: string; callbackUrl: string; metadata: Record<string, string> };

/** `pending`: not paid (yet); `paid` carries when and how, as the provider says. */
export type CheckoutOutcome =
  | { status: 'pending' }
  | { status: 'paid'; amountKobo: number; paidAt: Date; channel: string | null }
  | { status: 'failed'; reason: string };

export type PayoutInstruction = {
  reference: string;
  amountKobo: number;
  reason: string;
  account: { accountNumber: string; accountName: string; bankCode: string; recipientCode: string | null };
  /** The end of the sender's lease: no request of the send starts after it, and none is waited for past it. */
  sendBy?: Date;
};

export type PayoutSent = {
  /** The provider's own code for the transfer (Paystack's transfer_code). */
  providerReference: string;
  /** The recipient the provider made for the bank account, to keep on it. */
  recipientCode: string | null;
  outcome: PayoutOutcome;
};

/** `processing`: the provider has it and its webhook (or a later check) will say how it ended. */
export type PayoutOutcome =
  | { status: 'unknown' }
  | { status: 'processing'; providerReference?: string }
  | { status: 'paid'; providerReference?: string }
  | { status: 'failed'; reason: string; providerReference?: string }
  | { status: 'reversed'; reason: string; providerReference?: string };

export type FundingCustomer = { email: string; firstName: string; lastName: string; phone: string | null; walletId: string };

export type FundingAccount = {
  accountNumber: string;
  accountName: string;
  bankName: string;
  /** The provider's customer, whose credits fund this wallet (Paystack's customer_code). */
  customerCode: string;
};

/** A provider's refusal or failure, in words a client can act on. `retryable`: try the same call again later. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'ACCOUNT_NOT_FOUND' | 'REFUSED' | 'UNAVAILABLE',
    message: string,
    readonly retryable = kind === 'UNAVAILABLE',
  ) {
    super(message);
  }
}
