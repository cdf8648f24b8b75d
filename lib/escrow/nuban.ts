import { findBank } from './banks';

// CBN revised NUBAN standard (2020): the check digit covers a 6-digit institution code plus the
// 9-digit serial. Deposit money banks pad their 3-digit code with "000" and other financial
// institutions prefix their 5-digit CBN code with "9" (the CBN's own example: 50547 -> 950547).
// The leading zeros make the revised rule give exactly the 2010 12-digit result for banks, so one
// weight row serves both.
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3] as const;

// These 3-digit codes are payment-API aliases for microfinance banks and a PSB, not CBN bank
// codes, so the account numbers were never generated against them and a mismatch proves nothing.
const PROVIDER_ALIAS_CODES: ReadonlySet<string> = new Set(['565', '566', '602', '946']);

function institutionCode(bankCode: string): string {
  if (/^\d{3}$/.test(bankCode)) return `000${bankCode}`;
  if (/^\d{5}$/.test(bankCode)) return `9${bankCode}`;
  if (/^\d{6}$/.test(bankCode)) return bankCode;
  throw new RangeError(`Bank code must be 3, 5 or 6 digits, got "${bankCode}".`);
}

export function nubanCheckDigit(bankCode: string, serialNumber: string): number {
  if (!/^\d{9}$/.test(serialNumber)) {
    throw new RangeError(`NUBAN serial number must be 9 digits, got "${serialNumber}".`);
  }
  const digits = institutionCode(bankCode) + serialNumber;
  let sum = 0;
  WEIGHTS.forEach((weight, i) => {
    sum += weight * (digits.charCodeAt(i) - 48);
  });
  return (10 - (sum % 10)) % 10;
}

// Six-digit codes belong to mobile money operators and payment service banks (OPay, PalmPay, the
// PSBs, Paga...). Most of their customers' account numbers are phone numbers without the leading
// 0, which carry no NUBAN check digit, so enforcing one would turn away real sellers.
function checkDigitApplies(bankCode: string): boolean {
  return bankCode.length !== 6 && !PROVIDER_ALIAS_CODES.has(bankCode);
}

export function nubanProblem(accountNumber: string, bankCode: string): string | null {
  if (!/^\d{10}$/.test(accountNumber)) return 'Account number must be exactly 10 digits.';
  if (bankCode === '') return 'Bank code is required.';
  const bank = findBank(bankCode);
  if (!bank) return `Unknown bank code ${bankCode}.`;
  if (!checkDigitApplies(bank.code)) return null;
  const expected = nubanCheckDigit(bank.code, accountNumber.slice(0, 9));
  if (accountNumber.charCodeAt(9) - 48 !== expected) {
    return `${accountNumber} is not a valid account number for ${bank.name} (check digit mismatch).`;
  }
  return null;
}

export function isValidNuban(accountNumber: string, bankCode: string): boolean {
  return nubanProblem(accountNumber, bankCode) === null;
}
