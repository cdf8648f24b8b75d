import { describe, expect, it } from 'vitest';
import { NIGERIAN_BANKS } from './banks';
import { isValidNuban, nubanCheckDigit, nubanProblem } from './nuban';

// Every published number below was run through the algorithm before being asserted.
const PUBLISHED_VALID: ReadonlyArray<{ account: string; code: string; source: string }> = [
  // CBN "Proposals on the implementation of NUBAN scheme" v0.4 (2010), worked examples 1 and 2.
  { account: '0000014579', code: '011', source: 'CBN NUBAN proposals v0.4, example 1' },
  { account: '0000000220', code: '011', source: 'CBN NUBAN proposals v0.4, example 2' },
  // Flutterwave v2 docs, "Test bank accounts" (Providus Bank).
  { account: '5900102340', code: '101', source: 'Flutterwave v2 test bank accounts' },
  { account: '5900002567', code: '101', source: 'Flutterwave v2 test bank accounts' },
  // Paystack API docs, dedicated NUBAN sample response when the provider was Wema Bank.
  { account: '9930000737', code: '035', source: 'Paystack dedicated virtual account sample' },
  // github.com/Zifah/Nigeria-Bank-Account-NUBAN-Algorithm README: the author's own GTBank account.
  { account: '0016563228', code: '058', source: 'Zifah/Nigeria-Bank-Account-NUBAN-Algorithm README' },
  // github.com/03balogun/nuban-bank-prediction-algorithm test/predictBanks.test.ts.
  { account: '0010246780', code: '044', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '0054556411', code: '221', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '1012854016', code: '057', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '0108024071', code: '058', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '1018044721', code: '033', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '2022323697', code: '011', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '5600026567', code: '070', source: '03balogun/nuban-bank-prediction-algorithm' },
  { account: '2828744017', code: '214', source: '03balogun/nuban-bank-prediction-algorithm' },
  // github.com/nosakhare/Nigeria-Bank-Account-NUBAN-Algorithm: README worked example and
  // test_nip_codes.js, Moniepoint accounts under the revised (9 + 5-digit code) rule.
  { account: '4000675874', code: '50515', source: 'nosakhare/Nigeria-Bank-Account-NUBAN-Algorithm README' },
  { account: '5822207333', code: '50515', source: 'nosakhare/Nigeria-Bank-Account-NUBAN-Algorithm tests' },
];

// Published numbers that are NOT valid for the bank they are shown with (placeholders in docs).
const PUBLISHED_INVALID: ReadonlyArray<{ account: string; code: string; source: string }> = [
  { account: '0001234567', code: '058', source: 'Paystack "resolve account number" docs placeholder' },
  { account: '0193274682', code: '044', source: 'Paystack subaccount sample (Access Bank)' },
  { account: '0690000031', code: '044', source: 'Flutterwave v2 sandbox Access Bank account' },
];

describe('nubanCheckDigit', () => {
  it('reproduces the CBN worked examples', () => {
    expect(nubanCheckDigit('011', '000001457')).toBe(9);
    expect(nubanCheckDigit('011', '000000022')).toBe(0);
  });

  it('gives the 2010 12-digit result for 3-digit codes (the 000 prefix adds nothing)', () => {
    const legacy = (code: string, serial: string) => {
      const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
      const sum = [...(code + serial)].reduce((acc, d, i) => acc + Number(d) * (weights[i] ?? 0), 0);
      return (10 - (sum % 10)) % 10;
    };
    for (const code of ['011', '058', '232', '999']) {
      for (const serial of ['000000000', '123456789', '987654321', '000001457']) {
        expect(nubanCheckDigit(code, serial)).toBe(legacy(code, serial));
      }
    }
  });

  it('prefixes a 5-digit institution code with 9, as in the revised standard', () => {
    // CBN's own example: OFI code 50547 becomes 950547; a 6-digit code is used as given.
    expect(nubanCheckDigit('50547', '000021457')).toBe(nubanCheckDigit('950547', '000021457'));
    expect(nubanCheckDigit('50515', '400067587')).toBe(4);
  });

  it('wraps a check of 10 to 0', () => {
    expect(nubanCheckDigit('011', '000000022')).toBe(0);
  });

  it('rejects malformed input instead of guessing', () => {
    expect(() => nubanCheckDigit('011', '00000145')).toThrow(RangeError);
    expect(() => nubanCheckDigit('011', '00000145a')).toThrow(RangeError);
    expect(() => nubanCheckDigit('11', '000001457')).toThrow(RangeError);
    expect(() => nubanCheckDigit('0111', '000001457')).toThrow(RangeError);
  });
});

describe('isValidNuban', () => {
  it.each(PUBLISHED_VALID)('accepts $account for $code ($source)', ({ account, code }) => {
    expect(isValidNuban(account, code)).toBe(true);
  });

  it.each(PUBLISHED_INVALID)('rejects $account for $code ($source)', ({ account, code }) => {
    expect(isValidNuban(account, code)).toBe(false);
  });

  it('rejects every wrong check digit for a valid serial', () => {
    for (let digit = 0; digit <= 9; digit++) {
      expect(isValidNuban(`000001457${digit}`, '011')).toBe(digit === 9);
    }
  });

  it('ties the check digit to the bank', () => {
    expect(isValidNuban('0016563228', '058')).toBe(true);
    expect(isValidNuban('0016563228', '057')).toBe(false);
  });

  it('is false for non-10-digit, non-numeric and unknown-bank input', () => {
    for (const bad of ['', '000001457', '00000145790', '000001457x', ' 000001457', '0000-14579', '１２３４５６７８９０']) {
      expect(isValidNuban(bad, '011'), bad).toBe(false);
    }
    expect(isValidNuban('0000014579', '999')).toBe(false);
    expect(isValidNuban('0000014579', '')).toBe(false);
  });

  it('does not enforce a check digit where the code cannot carry one', () => {
    // OPay and PalmPay accounts are usually the holder's phone number without the leading 0.
    expect(isValidNuban('8132814792', '999992')).toBe(true);
    expect(isValidNuban('8143730231', '999991')).toBe(true);
    // VFD's 566 is a payment-API alias, not the CBN code its NUBANs were generated with.
    expect(isValidNuban('1000000000', '566')).toBe(true);
    // Still 10 digits, though.
    expect(isValidNuban('08132814792', '999992')).toBe(false);
  });

  it('accepts a generated account for every bank in the list', () => {
    for (const bank of NIGERIAN_BANKS) {
      const serial = '123456789';
      expect(isValidNuban(`${serial}${nubanCheckDigit(bank.code, serial)}`, bank.code), bank.name).toBe(true);
    }
  });
});

describe('nubanProblem', () => {
  it('is null for a valid account', () => {
    expect(nubanProblem('0000014579', '011')).toBeNull();
    expect(nubanProblem('4000675874', '50515')).toBeNull();
  });

  it('explains each failure in one sentence', () => {
    expect(nubanProblem('12345', '058')).toBe('Account number must be exactly 10 digits.');
    expect(nubanProblem('01234567ab', '058')).toBe('Account number must be exactly 10 digits.');
    expect(nubanProblem('0123456789', '999')).toBe('Unknown bank code 999.');
    expect(nubanProblem('0123456789', '')).toBe('Bank code is required.');
    expect(nubanProblem('0123456789', '058')).toBe(
      '0123456789 is not a valid account number for GTBank (check digit mismatch).',
    );
    expect(nubanProblem('4000675875', '50515')).toBe(
      '4000675875 is not a valid account number for Moniepoint Microfinance Bank (check digit mismatch).',
    );
  });
});
