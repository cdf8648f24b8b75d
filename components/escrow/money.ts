import { splitFee, type CommissionPayer } from '@/lib/escrow/fees';
import { heldPrincipal, refundBreakdown } from '@/lib/escrow/held-escrow';
import { feeOnPayment, maxSellerPayment, settlementBreakdown, type SettlementTerms } from '@/lib/escrow/ledger';
import { naira } from './format';

type FeeTerms = { commission_payer: CommissionPayer; milestone_fee: number; amount: number };

/** Who bears a milestone's fee and what each side pays and receives, in naira (the fee split is lib/escrow's). */
export function feeTerms(m: FeeTerms): { fee: number; buyerShare: number; sellerShare: number; buyerPays: number; sellerReceives: number } {
  const shares = splitFee(Math.round(m.milestone_fee * 100), m.commission_payer);
  const amount = Math.round(m.amount * 100);
  return {
    fee: m.milestone_fee,
    buyerShare: shares.buyer / 100,
    sellerShare: shares.seller / 100,
    buyerPays: (amount + shares.buyer) / 100,
    sellerReceives: (amount - shares.seller) / 100,
  };
}

/** Who pays the fee, said to the person reading ("you" for their own side). */
export function feePayer(payer: CommissionPayer, viewer: 'buyer' | 'seller' | 'admin'): string {
  const party = (p: 'buyer' | 'seller') => (viewer === p ? 'you' : `the ${p}`);
  if (payer === 'SPLIT_50_50') return viewer === 'admin' ? 'buyer and seller, half each' : `${party('buyer')} and ${party('seller')}, half each`;
  return party(payer === 'BUYER_100' ? 'buyer' : 'seller');
}

/**
 * How a settlement paying the seller `paidToSeller` splits the escrow, by the same rule the ledger applies: what the
 * seller receives after its fee share, what comes back to the buyer, and the fee charged (pro rata). The escrow holds
 * the milestone and the buyer's prepaid fee share unless told otherwise.
 */
export function settlementSplit(paidToSeller: number, m: FeeTerms, escrowBalance?: number): { toSeller: number; toBuyer: number; fee: number } {
  const kobo = (n: number) => Math.round(n * 100);
  const terms = { milestoneAmount: kobo(m.amount), milestoneFee: kobo(m.milestone_fee), commissionPayer: m.commission_payer, escrowBalance: kobo(escrowBalance ?? feeTerms(m).buyerPays) };
  // Never more than the ledger's own ceiling (the transaction amount never binds below the milestone's): words, not a thrown error.
  const paid = Math.min(kobo(paidToSeller), maxSellerPayment(terms, Number.MAX_SAFE_INTEGER));
  const split = settlementBreakdown(paid, terms);
  return { toSeller: split.toSeller / 100, toBuyer: split.toBuyer / 100, fee: split.fee / 100 };
}

/** The split in one sentence: "the seller receives …; … goes back to the buyer; the fee charged is …". */
export function splitWords(split: { toSeller: number; toBuyer: number; fee: number }, viewer: 'buyer' | 'seller' | 'staff', tense: 'will' | 'did' = 'will'): string {
  const seller = viewer === 'seller' ? (tense === 'will' ? 'you receive' : 'you received') : tense === 'will' ? 'the seller receives' : 'the seller received';
  const buyer = viewer === 'buyer' ? (tense === 'will' ? 'comes back to you' : 'came back to you') : tense === 'will' ? 'goes back to the buyer' : 'went back to the buyer';
  const sentence = `${seller} ${naira(split.toSeller)}, ${naira(split.toBuyer)} ${buyer}, and the fee charged ${tense === 'will' ? 'is' : 'was'} ${naira(split.fee)}`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

export type HeldTerms = FeeTerms & { milestone_escrow: { balance: number } };
const toKobo = (n: number) => Math.round(n * 100);

/** The milestone's terms and its escrow's balance now, in kobo, as lib/escrow reads them. */
export function termsOf(m: HeldTerms): SettlementTerms {
  return { milestoneAmount: toKobo(m.amount), milestoneFee: toKobo(m.milestone_fee), commissionPayer: m.commission_payer, escrowBalance: toKobo(m.milestone_escrow.balance) };
}

/**
 * What the escrow still holds of the price (docs/decisions.md §17): the most a refund gives back and the ceiling of a
 * partial acceptance. A balance lib/escrow cannot read holds nothing the dashboard offers to move.
 */
export function heldPrice(m: HeldTerms): number {
  try {
    return heldPrincipal(termsOf(m)) / 100;
  } catch {
    return 0;
  }
}

/** A seller's refund of `amount` naira of the price: what reaches the buyer (its fee share on it included). */
export function refundSplit(amount: number, m: HeldTerms): { toBuyer: number; feeShare: number; everything: boolean } {
  const split = refundBreakdown(toKobo(amount), termsOf(m));
  return { toBuyer: split.toBuyer / 100, feeShare: split.feeShare / 100, everything: split.principalAfter === 0 };
}

/** The fee charged when the seller was paid `paidToSeller` of the price: the agreed fee pro rata (docs/decisions.md §17). */
export function feeChargedOn(paidToSeller: number, m: FeeTerms): { fee: number; sellerShare: number } {
  const fee = feeOnPayment(toKobo(paidToSeller), { milestoneAmount: toKobo(m.amount), milestoneFee: toKobo(m.milestone_fee) });
  return { fee: fee / 100, sellerShare: splitFee(fee, m.commission_payer).seller / 100 };
}
