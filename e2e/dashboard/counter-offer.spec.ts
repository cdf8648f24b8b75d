import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoReturnRejected, expect, expectToast, signedInPage, test, unique } from './support';

/**
 * A buyer's counter-offer in mediation through the browser (docs/decisions.md §13): the buyer offers what it is
 * prepared to pay, the seller accepts it, the negotiation shows both sides' offers, and both wallets show
 * the split.
 */
test.describe.configure({ mode: 'serial' });

const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

let buyer: Page;
let seller: Page;

/** A ₦30,000 milestone (the seller pays the 1% fee) whose return the seller rejected, and the dispute it opened. */
async function openDispute(): Promise<{ id: string; code: string }> {
  const { ada, tunde, milestoneId: m } = await demoReturnRejected({
    title: `Counter-offer ${unique()}`,
    description: 'Browser suite: a buyer’s counter-offer',
    amount: 30_000,
    walletFunds: 30_000,
    commissionPayer: 'SELLER_100',
    rejectionReason: 'Half of it was missing',
  });
  const dispute = await api<{ id: string; dispute_code: string }>(demoKey(), 'POST', '/v1/dispute/create', {
    description: 'Everything was delivered',
    buyer_id: ada,
    seller_id: tunde,
    milestone_id: m,
  });
  return { id: dispute.id, code: dispute.dispute_code };
}

test.beforeAll(async ({ browser }) => {
  buyer = await signedInPage(browser, DEMO.buyer);
  seller = await signedInPage(browser, DEMO.seller);
});

test('the buyer’s counter-offer is accepted by the seller, and both wallets show the split', async () => {
  const dispute = await openDispute();

  await buyer.goto(`/disputes/${dispute.id}`);
  const offer = buyer.getByRole('form', { name: 'Make a counter-offer' });
  await offer.getByLabel('Amount you offer to pay the seller (₦)').fill('12000');
  await offer.getByRole('button', { name: 'Make counter-offer' }).click();
  const confirm = buyer.getByRole('dialog');
  // The seller bears the 1% fee: on ₦12,000 of a ₦30,000 milestone, ₦120 of its ₦300.
  await expect(confirm).toContainText(
    `You offer the seller ${naira(12_000)} of the ${naira(30_000)} held. If the seller accepts: the seller receives ${naira(11_880)}, ${naira(18_000)} comes back to you, and the fee charged is ${naira(120)}.`,
  );
  await confirm.getByRole('button', { name: 'Send offer' }).click();
  await expect(confirm).toBeHidden();
  await expectToast(buyer, /Counter-offer made/);
  await expect(buyer.getByText(`Waiting for the seller to answer your offer of ${naira(12_000)}.`)).toBeVisible();
  await expect(buyer.getByTestId('thread-entry').filter({ hasText: `You offered ${naira(12_000)}` })).toContainText('Awaiting the seller');

  await seller.goto(`/disputes/${dispute.id}`);
  await expect(seller.getByRole('group', { name: "Answer the buyer's offer" })).toContainText(`The buyer offers you ${naira(12_000)} of the ${naira(30_000)} held`);
  await seller.getByRole('button', { name: 'Accept offer' }).click();
  const accept = seller.getByRole('dialog');
  await accept.getByRole('button', { name: 'Accept and settle' }).click();
  await expect(accept).toBeHidden();
  await expectToast(seller, /offer accepted/);
  await expect(seller.getByTestId('thread-entry').filter({ hasText: `You accepted ${naira(12_000)}: the dispute is settled` })).toBeVisible();

  // ₦12,000 less the seller's 1% share of the fee on it to the seller; the other ₦18,000 back to the buyer.
  await seller.goto('/wallet');
  await expect(seller.getByTestId('wallet-entry').filter({ hasText: dispute.code })).toContainText(`+${naira(11_880)}`);
  await buyer.goto('/wallet');
  await expect(buyer.getByTestId('wallet-entry').filter({ hasText: dispute.code })).toContainText(`+${naira(18_000)}`);

  // The milestone shows the fee actually charged on the ₦12,000 paid, not the ₦300 agreed on the whole.
  await seller.goto(`/disputes/${dispute.id}`);
  await seller.getByRole('link', { name: /Counter-offer/ }).first().click();
  await expect(seller.getByTestId('milestone-1')).toContainText(`Fee charged${naira(120)} (of ${naira(300)} agreed)`);
});
