/**
 * Whether the name a bank holds for an account is the customer's (a payee check before money goes to it).
 * Banks write names in capitals, in any order, often with a middle name: "OKEKE CHINEDU JOHN" is
 * Chinedu Okeke's. It matches when every word of the customer's first and last name is among the
 * account name's words, compared without case, accents or punctuation.
 */
export function namesMatch(customer: { firstName: string; lastName: string }, accountName: string): boolean {
  const wanted = words(`${customer.firstName} ${customer.lastName}`);
  if (wanted.length === 0) return false;
  const held = new Set(words(accountName));
  return wanted.every((word) => held.has(word));
}

function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
