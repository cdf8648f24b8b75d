import { partialAcceptancePreview } from '@/lib/escrow/partial-outcomes';
import { termsOf, type HeldTerms } from './money';

/**
 * A partial acceptance paying the seller `release` naira of what is held, by lib/escrow's own rule (docs/decisions.md
 * §17): what the seller receives after its fee share, what goes back to the buyer, and the fee charged. Apart from
 * money.ts so the pages that never show a proposal do not load its rules.
 */
export function partialSplit(release: number, m: HeldTerms): { toSeller: number; toBuyer: number; fee: number; sellerFeeShare: number } {
  const paid = Math.round(release * 100);
  const split = partialAcceptancePreview(paid, termsOf(m));
  return { toSeller: split.toSeller / 100, toBuyer: split.toBuyer / 100, fee: split.fee / 100, sellerFeeShare: (paid - split.toSeller) / 100 };
}
