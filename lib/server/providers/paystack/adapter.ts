import 'server-only';
import { ProviderError, type CheckoutOutcome, type PaymentProvider, type PayoutOutcome } from '../provider';
import { PaystackError, paystackApi, type PaystackTransaction, type PaystackTransfer } from './api';
import { toPaystackReference, toPaystackTransactionReference } from './reference';

type Options = {
  secretKey: string;
  baseUrl?: string;
  /**
   * POST /dedicated_account `preferred_bank` slug. The reference's examples use wema-bank and
   * titan-paystack (https://paystack.com/docs/api/dedicated-virtual-account/#create) and test-bank with
   * test keys (https://paystack.com/docs/payments/dedicated-virtual-accounts/); that is the default by key.
   */
  dedicatedAccountBank?: string;
};

/**
 * Transfer statuses as https://paystack.com/docs/transfers/how-transfers-work/ lists them. Conclusive
 * without the money arriving: failed, and abandoned (OTP not given in 30 minutes), blocked and rejected
 * (the approval step); reversed is kept apart because it can come after success. The rest (pending, otp,
 * received, and any status added later) are not conclusive: a webhook or a requery will say more.
 */
export function payoutOutcome(transfer: PaystackTransfer): PayoutOutcome {
  const providerReference = transfer.transfer_code;
  const reason = transfer.gateway_response || `Paystack reported the transfer ${transfer.status}.`;
  switch (transfer.status) {
    case 'success':
      return { status: 'paid', providerReference };
    case 'reversed':
      return { status: 'reversed', reason, providerReference };
    case 'failed':
    case 'abandoned':
    case 'blocked':
    case 'rejected':
      return { status: 'failed', reason, providerReference };
    default:
      return { status: 'processing', providerReference };
  }
}

/**
 * A transaction's status (https://paystack.com/docs/payments/verify-payments/): `success` is paid; `failed`,
 * `abandoned` and `reversed` did not pay; the rest (ongoing, pending, processing, queued) are not conclusive.
 * A success without a readable paid_at is judged at the time we hear of it.
 */
export function checkoutOutcome(t: PaystackTransaction, heardAt: Date): CheckoutOutcome {
  if (t.status === 'success' && (!t.currency || t.currency === 'NGN')) {
    const paidAt = new Date(t.paid_at ?? t.paidAt ?? Number.NaN);
    return { status: 'paid', amountKobo: t.amount, paidAt: Number.isNaN(paidAt.getTime()) ? heardAt : paidAt, channel: t.channel ?? null };
  }
  if (t.status === 'failed' || t.status === 'abandoned' || t.status === 'reversed') return { status: 'failed', reason: t.gateway_response || `Paystack reported the payment ${t.status}.` };
  return { status: 'pending' };
}

export function paystackProvider({ secretKey, baseUrl, dedicatedAccountBank }: Options): PaymentProvider {
  const api = paystackApi({ secretKey, baseUrl });
  const preferredBank = dedicatedAccountBank ?? (secretKey.startsWith('sk_test_') ? 'test-bank' : 'wema-bank');

  return {
    name: 'paystack',

    async resolveAccountName(accountNumber, bank) {
      return (await api.resolveAccount(accountNumber, bank.code)).accountName;
    },

    async sendPayout(payout) {
      const reference = toPaystackReference(payout.reference);
      const until = payout.sendBy;
      const newRecipient = () => api.createTransferRecipient({ name: payout.account.accountName, accountNumber: payout.account.accountNumber, bankCode: payout.account.bankCode, until });
      let recipientCode = payout.account.recipientCode ?? (await newRecipient()).recipientCode;
      const send = () => api.initiateTransfer({ amountKobo: payout.amountKobo, recipientCode, reference, reason: payout.reason, until });
      let transfer: PaystackTransfer;
      try {
        try {
          transfer = await send();
        } catch (error) {
          // A recipient kept on the account may since have been deleted on Paystack: make it again, once.
          if (!(error instanceof PaystackError) || error.code !== 'invalid_transfer_recipient' || !payout.account.recipientCode) throw error;
          recipientCode = (await newRecipient()).recipientCode;
          transfer = await send();
        }
      } catch (error) {
        // A refusal may be Paystack saying it already has this reference: a send repeated after a crash
        // between its receiving the first and our recording the answer. The transfer it has is ours.
        if (!(error instanceof ProviderError) || error.kind !== 'REFUSED') throw error;
        const known = await api.verifyTransfer(reference);
        if (!known) throw error;
        if (known.amount !== payout.amountKobo) {
          throw new ProviderError('REFUSED', `Paystack holds a transfer of ${known.amount} kobo under reference ${payout.reference}, not ${payout.amountKobo}.`);
        }
        transfer = known;
      }
      return { providerReference: transfer.transfer_code, recipientCode, outcome: payoutOutcome(transfer) };
    },

    async checkPayout(reference) {
      const transfer = await api.verifyTransfer(toPaystackReference(reference));
      return transfer ? payoutOutcome(transfer) : { status: 'unknown' };
    },

    async startCheckout(checkout) {
      return api.initializeTransaction({ ...checkout, reference: toPaystackTransactionReference(checkout.reference) });
    },

    async checkCheckout(reference) {
      const transaction = await api.verifyTransaction(toPaystackTransactionReference(reference));
      return transaction ? checkoutOutcome(transaction, new Date()) : { status: 'pending' };
    },

    async openFundingAccount(customer) {
      const { customerCode } = await api.createCustomer({ email: customer.email, first_name: customer.firstName, last_name: customer.lastName, phone: customer.phone });
      const account = await api.createDedicatedAccount({ customerCode, preferredBank });
      return { accountNumber: account.accountNumber, accountName: account.accountName, bankName: account.bankName, customerCode };
    },
  };
}
