import 'server-only';
import { createHash } from 'node:crypto';
import type { PaymentProvider } from './provider';

const FIRST = ['Adaeze', 'Babatunde', 'Chinedu', 'Damilola', 'Emeka', 'Funmilayo', 'Garba', 'Halima', 'Ifeoma', 'Kehinde', 'Ngozi', 'Oluwaseun', 'Tunde', 'Uche', 'Yetunde', 'Zainab'];
const LAST = ['Adeyemi', 'Balogun', 'Chukwu', 'Danjuma', 'Eze', 'Fashola', 'Ibrahim', 'Nwosu', 'Obi', 'Okafor', 'Olawale', 'Onyeka', 'Suleiman', 'Uzor', 'Yusuf', 'Abubakar'];

/**
 * The sandbox needs nothing: a stable, plausible name for every valid NUBAN (so a test can assert it and a
 * person can read it), and payouts that the service itself settles on the client's clock
 * (services/payouts.ts): a send is always accepted.
 */
export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  async resolveAccountName(accountNumber, bank) {
    const digest = createHash('sha256').update(`${bank.code}:${accountNumber}`).digest();
    return `${FIRST[digest[0]! % FIRST.length]} ${LAST[digest[1]! % LAST.length]}`.toUpperCase();
  },
  async sendPayout(payout) {
    return { providerReference: `SBX_${payout.reference.slice(3)}`, recipientCode: null, outcome: { status: 'processing' } };
  },
  async checkPayout() {
    return { status: 'processing' };
  },
  async openFundingAccount() {
    throw new Error('sandbox wallets are funded with POST /v1/wallets/fund');
  },
  // The sandbox's payment page is this service's own (app/checkout/[reference]); its buttons settle the checkout.
  async startCheckout() {
    throw new Error('sandbox checkouts are paid on /checkout/{reference}');
  },
  async checkCheckout() {
    return { status: 'pending' };
  },
};
