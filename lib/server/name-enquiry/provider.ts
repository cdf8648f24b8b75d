import 'server-only';
import { createHash } from 'node:crypto';
import type { Bank } from '@/lib/escrow/banks';
import { env } from '../env';

/** Account name enquiry (decisions §7): a real provider plugs in here, configured by environment. */
export interface NameEnquiryProvider {
  readonly name: string;
  resolveAccountName(accountNumber: string, bank: Bank): Promise<string>;
}

const FIRST = ['Adaeze', 'Babatunde', 'Chinedu', 'Damilola', 'Emeka', 'Funmilayo', 'Garba', 'Halima', 'Ifeoma', 'Kehinde', 'Ngozi', 'Oluwaseun', 'Tunde', 'Uche', 'Yetunde', 'Zainab'];
const LAST = ['Adeyemi', 'Balogun', 'Chukwu', 'Danjuma', 'Eze', 'Fashola', 'Ibrahim', 'Nwosu', 'Obi', 'Okafor', 'Olawale', 'Onyeka', 'Suleiman', 'Uzor', 'Yusuf', 'Abubakar'];

/** Sandbox: a stable, plausible name for every valid NUBAN, so a test can assert it and a person can read it. */
export const sandboxNameEnquiry: NameEnquiryProvider = {
  name: 'sandbox',
  async resolveAccountName(accountNumber, bank) {
    const digest = createHash('sha256').update(`${bank.code}:${accountNumber}`).digest();
    return `${FIRST[digest[0]! % FIRST.length]} ${LAST[digest[1]! % LAST.length]}`.toUpperCase();
  },
};

export function nameEnquiryProvider(): NameEnquiryProvider {
  switch (env().ESCROW_NAME_ENQUIRY_PROVIDER) {
    case 'sandbox':
      return sandboxNameEnquiry;
  }
}
