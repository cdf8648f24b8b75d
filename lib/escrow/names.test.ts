import { describe, expect, it } from 'vitest';
import { namesMatch } from './names';

const chinedu = { firstName: 'Chinedu', lastName: 'Okeke' };

describe('namesMatch', () => {
  it('matches the bank’s capitals, in any order, with a middle name or punctuation', () => {
    expect(namesMatch(chinedu, 'CHINEDU OKEKE')).toBe(true);
    expect(namesMatch(chinedu, 'OKEKE CHINEDU JOHN')).toBe(true);
    expect(namesMatch(chinedu, 'Okeke, Chinedu J.')).toBe(true);
    expect(namesMatch({ firstName: 'Adébáyọ̀', lastName: "O'Neil" }, 'ADEBAYO O NEIL')).toBe(true);
  });

  it('refuses another person, or a name with a word of the customer’s missing', () => {
    expect(namesMatch(chinedu, 'HALIMA YUSUF')).toBe(false);
    expect(namesMatch(chinedu, 'CHINEDU ADEYEMI')).toBe(false);
    expect(namesMatch(chinedu, 'CHINEDUOKEKE')).toBe(false);
    expect(namesMatch({ firstName: ' ', lastName: '' }, 'ANYONE')).toBe(false);
  });
});
