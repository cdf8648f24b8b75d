import { describe, expect, it } from 'vitest';
import { findBank, NIGERIAN_BANKS } from './banks';

describe('NIGERIAN_BANKS', () => {
  it('is sorted by name', () => {
    const names = NIGERIAN_BANKS.map((bank) => bank.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('has unique codes of the shapes payment APIs use, and 6-digit NIBSS codes', () => {
    const codes = NIGERIAN_BANKS.map((bank) => bank.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const bank of NIGERIAN_BANKS) {
      expect(bank.code, bank.name).toMatch(/^(\d{3}|\d{5}|\d{6})$/);
      if (bank.nibss_code !== undefined) expect(bank.nibss_code, bank.name).toMatch(/^\d{6}$/);
    }
    const nibss = NIGERIAN_BANKS.flatMap((bank) => (bank.nibss_code ? [bank.nibss_code] : []));
    expect(new Set(nibss).size).toBe(nibss.length);
  });

  it('carries the deposit money banks under their CBN codes', () => {
    const expected: Record<string, RegExp> = {
      '044': /^Access Bank$/,
      '058': /GTBank/,
      '057': /Zenith/,
      '011': /First Bank/,
      '033': /United Bank for Africa/,
      '232': /Sterling/,
      '035': /Wema/,
      '214': /First City Monument/,
      '070': /Fidelity/,
      '032': /Union Bank/,
      '076': /Polaris/,
      '221': /Stanbic/,
      '050': /Ecobank/,
      '082': /Keystone/,
      '215': /Unity/,
      '301': /Jaiz/,
      '101': /Providus/,
      '068': /Standard Chartered/,
      '023': /Citibank/,
    };
    for (const [code, name] of Object.entries(expected)) {
      expect(findBank(code)?.name, code).toMatch(name);
    }
  });

  it('carries the microfinance banks and mobile money operators integrators use', () => {
    expect(findBank('50211')).toMatchObject({ name: 'Kuda Microfinance Bank', nibss_code: '090267' });
    expect(findBank('50515')).toMatchObject({ name: 'Moniepoint Microfinance Bank', nibss_code: '090405' });
    expect(findBank('999992')).toMatchObject({ name: 'OPay', nibss_code: '100004' });
    expect(findBank('999991')).toMatchObject({ name: 'PalmPay', nibss_code: '100033' });
    expect(findBank('044')?.nibss_code).toBe('000014');
    expect(findBank('058')?.nibss_code).toBe('000013');
  });

  it('leaves out defunct banks', () => {
    expect(findBank('030')).toBeUndefined(); // Heritage Bank, licence revoked 2024
    expect(NIGERIAN_BANKS.some((bank) => /heritage/i.test(bank.name))).toBe(false);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(NIGERIAN_BANKS)).toBe(true);
    expect(NIGERIAN_BANKS.every((bank) => Object.isFrozen(bank))).toBe(true);
  });
});

describe('findBank', () => {
  it('matches codes exactly', () => {
    expect(findBank('058')?.code).toBe('058');
    expect(findBank('58')).toBeUndefined();
    expect(findBank('000013')).toBeUndefined(); // a NIBSS code is not a bank code
    expect(findBank('')).toBeUndefined();
    expect(findBank('999')).toBeUndefined();
  });
});
