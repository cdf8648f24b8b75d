import type { Page } from '@playwright/test';
import { acceptInviteAndSignIn, createCustomerInDashboard } from './staging';
import { api, DEMO, demoKey, expect, expectToast, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';

/**
 * Paying by card and the partial outcomes through the browser (docs/decisions.md §16–§17), one walk each, on a
 * phone's width: a buyer pays a milestone by card on the sandbox page and comes back to it funded; a buyer accepts
 * part of a delivery and the seller agrees, or declines; a seller refunds part of a milestone. Two customers of their own, so
 * each wallet's figure is known to the kobo; the deals are staged through the API.
 */
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const run = unique();
const buyer = { first: 'Funmi', last: 'Ajayi', email: `funmi.${run}@e2e.escrowdesk.ng`, password: 'funmi-password-1' };
const seller = { first: 'Kunle', last: 'Oyede', email: `kunle.${run}@e2e.escrowdesk.ng`, password: 'kunle-password-1' };
const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

let buyerPage: Page;
let sellerPage: Page;
let buyerId = '';
let sellerId = '';

type Milestone = { id: string; status: string; amount: number; milestone_fee: number };

async function userId(email: string): Promise<string> {
  const list = await api<{ users: Array<{ id: string; email: string }> }>(demoKey(), 'GET', `/v1/users?page=1&limit=5&sort=DESC&search=${encodeURIComponent(email)}`);
  const found = list.users.find((u) => u.email === email);
  if (!found) throw new Error(`${email} missing`);
  return found.id;
}

async function deal(title: string, amount: number, commissionPayer: 'BUYER_100' | 'SELLER_100' | 'SPLIT_50_50'): Promise<{ id: string; milestone: Milestone }> {
  const tx = await api<{ id: string; milestones: Milestone[] }>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Staged for the partial outcomes',
    buyer_id: buyerId,
    seller_id: sellerId,
    commission_payer: commissionPayer,
    milestones: [{ title: `${title} milestone`, description: 'Everything', amount, due_date: new Date(Date.now() + 20 * 86_400_000).toISOString() }],
  });
  return { id: tx.id, milestone: tx.milestones[0]! };
}

const balance = async (user: string) => (await api<{ balance: number }>(demoKey(), 'GET', `/v1/wallets/${user}`)).balance;
const cents = (n: number) => Math.round(n * 100);

/** The page as a phone shows it: nothing wider than the window, and no serious or critical accessibility violation. */
async function phoneReady(page: Page) {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/** The wallet page shows the figure the API holds now, to the kobo. */
async function walletShows(page: Page, user: string, expected: number) {
  const held = await balance(user);
  expect(cents(held)).toBe(cents(expected));
  await page.goto('/wallet');
  await expect(page.getByTestId('wallet-balance')).toHaveText(naira(held));
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await signedInPage(browser, DEMO.admin);
  await admin.getByRole('link', { name: 'Customers' }).click();
  const links = [await createCustomerInDashboard(admin, buyer), await createCustomerInDashboard(admin, seller)];
  await admin.context().close();
  const base = process.env.DASHBOARD_BASE_URL!;
  const signIn = (who: typeof buyer, link: string) => acceptInviteAndSignIn(browser, { base, link, email: who.email, password: who.password, home: /\/transactions$/ });
  [buyerPage, sellerPage] = await Promise.all([signIn(buyer, links[0]!), signIn(seller, links[1]!)]);
  await Promise.all([buyerPage.setViewportSize(PHONE), sellerPage.setViewportSize(PHONE)]);
  [buyerId, sellerId] = await Promise.all([userId(buyer.email), userId(seller.email)]);
});

test('a buyer with an empty wallet pays a milestone by card on the payment page and comes back to it funded', async () => {
  const { id, milestone } = await deal(`Card ${run}`, 12_345.67, 'BUYER_100');
  const due = Math.round((milestone.amount + milestone.milestone_fee) * 100) / 100;
  await buyerPage.goto(`/transactions/${id}`);
  await buyerPage.getByTestId('milestone-1').getByRole('button', { name: 'Fund milestone' }).click();
  const dialog = buyerPage.getByRole('dialog');
  await expect(dialog.getByTestId('fund-wallet-balance')).toHaveText(`Your wallet holds ${naira(0)}. That is ${naira(due)} short of the ${naira(due)}: pay by card, or add money to your wallet first.`);
  // Short: the card is the way offered first.
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeFocused();
  await phoneReady(buyerPage);
  await shot(buyerPage, 'buyer-fund-by-card-390');

  await dialog.getByRole('button', { name: 'Pay by card' }).click();
  await buyerPage.waitForURL(/\/checkout\/CO_[A-Z0-9]{20}$/);
  await expect(buyerPage.getByRole('heading', { level: 1 })).toHaveText(naira(due));
  await buyerPage.getByRole('button', { name: 'Pay' }).click();
  await buyerPage.waitForURL(new RegExp(`/transactions/${id}\\?reference=CO_[A-Z0-9]{20}$`));
  await expect(buyerPage.getByTestId('checkout-outcome')).toHaveText(`Your card payment of ${naira(due)} went through: “Card ${run} milestone” is funded.`);
  await expect(buyerPage.getByTestId('milestone-1').locator('[data-status]')).toHaveAttribute('data-status', 'IN_PROGRESS');
  await phoneReady(buyerPage);
  await shot(buyerPage, 'buyer-paid-by-card-390');

  const reference = new URL(buyerPage.url()).searchParams.get('reference');
  const checkouts = await api<{ checkouts: Array<{ reference: string; status: string; applied: boolean | null; amount: number }> }>(demoKey(), 'GET', `/v1/checkouts?user_id=${buyerId}`);
  expect(checkouts.checkouts.find((c) => c.reference === reference)).toMatchObject({ status: 'PAID', applied: true, amount: due });
  expect((await api<Milestone>(demoKey(), 'GET', `/v1/milestones/${milestone.id}`)).status).toBe('IN_PROGRESS');
  // Paid in and drawn into escrow at once: the wallet is back where it was.
  await walletShows(buyerPage, buyerId, 0);
});

test('a buyer accepts part of a delivery, the seller agrees, and both wallets move by exactly the amounts shown', async () => {
  // ₦40,000 with the buyer paying the ₦400 fee: paying ₦25,000.55 charges ₦250.01 of it and gives back ₦15,149.44.
  const { id, milestone } = await deal(`Part ${run}`, 40_000, 'BUYER_100');
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: buyerId, amount: 40_400 });
  await api(demoKey(), 'POST', `/v1/milestones/${milestone.id}/fund`, { buyer_id: buyerId });
  await api(demoKey(), 'POST', `/v1/milestones/${milestone.id}/deliver`, { seller_id: sellerId, proofs_of_completion: ['https://example.com/delivery.pdf'] });
  const [buyerBefore, sellerBefore] = await Promise.all([balance(buyerId), balance(sellerId)]);

  await buyerPage.goto(`/transactions/${id}`);
  const mine = buyerPage.getByTestId('milestone-1');
  await expect(mine.getByRole('button', { name: 'Accept delivery' })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Reject delivery' })).toBeVisible();
  await mine.getByRole('button', { name: 'Accept part' }).click();
  const dialog = buyerPage.getByRole('dialog');
  await dialog.getByLabel('Amount you pay the seller (₦)').fill('25000.55');
  const split = dialog.getByTestId('partial-split');
  await expect(split).toContainText(`The seller receives ${naira(25_000.55)}.`);
  await expect(split).toContainText(`The fee charged is ${naira(250.01)} (of ${naira(400)} agreed).`);
  await expect(split).toContainText(`${naira(15_149.44)} comes back to your wallet.`);
  await dialog.getByLabel('Why do you pay only part?').fill('Two of the five chairs arrived cracked');
  await phoneReady(buyerPage);
  await dialog.getByRole('button', { name: 'Review the offer' }).click();
  await expect(dialog.getByTestId('review-step')).toContainText(`You offer the seller ${naira(25_000.55)} of the ${naira(40_000)} held.`);
  await expect(dialog.getByRole('button', { name: 'Send the offer' })).toBeFocused();
  await phoneReady(buyerPage);
  await shot(buyerPage, 'buyer-accept-part-390');
  await dialog.getByRole('button', { name: 'Send the offer' }).click();
  await expectToast(buyerPage, /Partial acceptance proposed/);
  await expect(mine.getByTestId('partial-acceptance')).toContainText(`You offer to pay ${naira(25_000.55)} of the ${naira(40_000)} held: “Two of the five chairs arrived cracked”.`);
  await expect(mine.getByTestId('partial-acceptance')).toContainText('Waiting for the seller’s answer.');

  await sellerPage.goto(`/transactions/${id}`);
  const theirs = sellerPage.getByTestId('milestone-1');
  const offer = theirs.getByTestId('partial-acceptance');
  await expect(offer).toContainText(`The buyer offers to pay ${naira(25_000.55)} of the ${naira(40_000)} held`);
  await expect(offer).toContainText(`If it is accepted, you receive ${naira(25_000.55)}, ${naira(15_149.44)} goes back to the buyer, and the fee charged is ${naira(250.01)}.`);
  await expect(theirs.getByTestId('deadline-partial_acceptance_response')).toContainText('You must answer the offer to pay part by');
  await phoneReady(sellerPage);
  await shot(sellerPage, 'seller-offer-to-pay-part-390');
  await offer.getByRole('button', { name: 'Accept' }).click();
  await sellerPage.getByRole('dialog').getByRole('button', { name: 'Accept the offer' }).click();
  await expectToast(sellerPage, /Partial acceptance accepted/);
  await expect(theirs.locator('[data-status]')).toHaveAttribute('data-status', 'COMPLETED');
  await expect(theirs.getByTestId('partial-acceptance')).toContainText(`you received ${naira(25_000.55)}, ${naira(15_149.44)} went back to the buyer, and the fee charged was ${naira(250.01)}.`);
  await expect(theirs).toContainText(`${naira(250.01)} (of ${naira(400)} agreed)`);

  const settled = await api<{ amount_released: number; amount_refunded: number; partial_acceptance: { status: string; refund_amount: number } }>(demoKey(), 'GET', `/v1/milestones/${milestone.id}`);
  expect(settled).toMatchObject({ amount_released: 25_000.55, amount_refunded: 14_999.45, partial_acceptance: { status: 'ACCEPTED', refund_amount: 15_149.44 } });
  await walletShows(buyerPage, buyerId, buyerBefore + 15_149.44);
  await walletShows(sellerPage, sellerId, sellerBefore + 25_000.55);
});

test('a seller declines an offer to pay part: no money moves, and the buyer reads why and can answer the delivery again', async () => {
  const { id, milestone } = await deal(`Declined ${run}`, 10_000, 'SELLER_100');
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: buyerId, amount: 10_000 });
  await api(demoKey(), 'POST', `/v1/milestones/${milestone.id}/fund`, { buyer_id: buyerId });
  await api(demoKey(), 'POST', `/v1/milestones/${milestone.id}/deliver`, { seller_id: sellerId, proofs_of_completion: ['https://example.com/delivery.pdf'] });
  await api(demoKey(), 'POST', `/v1/milestones/${milestone.id}/partial-acceptance`, { buyer_id: buyerId, release_amount: 6_000, reason: 'One crate was short' });
  const [buyerBefore, sellerBefore] = await Promise.all([balance(buyerId), balance(sellerId)]);

  await sellerPage.goto(`/transactions/${id}`);
  const theirs = sellerPage.getByTestId('milestone-1');
  await theirs.getByTestId('partial-acceptance').getByRole('button', { name: 'Decline' }).click();
  const dialog = sellerPage.getByRole('dialog');
  await dialog.getByLabel('Why do you decline? (optional)').fill('Every crate was counted at pickup');
  await phoneReady(sellerPage);
  await dialog.getByRole('button', { name: 'Decline the offer' }).click();
  await expectToast(sellerPage, /Partial acceptance declined/);
  await expect(theirs.getByTestId('partial-acceptance')).toContainText(`You declined the buyer's offer to pay ${naira(6_000)}: “Every crate was counted at pickup”`);

  await buyerPage.goto(`/transactions/${id}`);
  const mine = buyerPage.getByTestId('milestone-1');
  await expect(mine.getByTestId('partial-acceptance')).toContainText(`The seller declined your offer to pay ${naira(6_000)}: “Every crate was counted at pickup”`);
  await expect(mine.getByRole('button', { name: 'Accept delivery' })).toBeVisible();
  expect(await Promise.all([balance(buyerId), balance(sellerId)])).toEqual([buyerBefore, sellerBefore]);
  expect((await api<Milestone>(demoKey(), 'GET', `/v1/milestones/${milestone.id}`)).status).toBe('UNDER_INSPECTION');
});

test('a seller refunds part of a funded milestone and the buyer’s wallet shows it', async () => {
  // ₦20,000 with the ₦200 fee split: refunding ₦7,500.25 gives back ₦37.50 of the buyer's prepaid share with it.
  const { id, milestone } = await deal(`Refund ${run}`, 20_000, 'SPLIT_50_50');
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: buyerId, amount: 20_100 });
  await api(demoKey(), 'POST', `/v1/milestones/${milestone.id}/fund`, { buyer_id: buyerId });
  const buyerBefore = await balance(buyerId);

  await buyerPage.goto(`/transactions/${id}`);
  await expect(buyerPage.getByTestId('milestone-1')).toContainText('Waiting for the seller to deliver.');
  await expect(buyerPage.getByRole('button', { name: 'Refund' })).toHaveCount(0);

  await sellerPage.goto(`/transactions/${id}`);
  const theirs = sellerPage.getByTestId('milestone-1');
  await theirs.getByRole('button', { name: 'Refund' }).click();
  const dialog = sellerPage.getByRole('dialog');
  await expect(dialog).toContainText(`At most ${naira(20_000)}, what this milestone still holds of its price.`);
  await dialog.getByLabel('Amount to refund (₦)').fill('7500.25');
  await expect(dialog.getByTestId('refund-split')).toHaveText(
    `${naira(7_537.75)} goes back to the buyer’s wallet (${naira(7_500.25)} and ${naira(37.5)} of the fee the buyer prepaid on it). ${naira(12_499.75)} of the price stays held.`,
  );
  await dialog.getByLabel('Why are you refunding?').fill('Only three of the five chairs are in stock');
  await phoneReady(sellerPage);
  await dialog.getByRole('button', { name: 'Review the refund' }).click();
  await expect(dialog.getByTestId('review-step')).toContainText(`You refund ${naira(7_500.25)} of the ${naira(20_000)} held.`);
  await phoneReady(sellerPage);
  await shot(sellerPage, 'seller-refund-390');
  await dialog.getByRole('button', { name: 'Refund the buyer' }).click();
  await expectToast(sellerPage, 'Refund made to the buyer');
  await expect(theirs.getByTestId('amount-refunded')).toHaveText(`${naira(7_500.25)} of the ${naira(20_000)} price went back to the buyer.`);
  // Still funded and still the seller's to deliver: what stays held is the rest and its fee share.
  await expect(theirs.locator('[data-status]')).toHaveAttribute('data-status', 'IN_PROGRESS');
  await expect(theirs).toContainText(naira(12_562.25));
  await expect(theirs.getByRole('button', { name: 'Deliver with proof' })).toBeVisible();

  await walletShows(buyerPage, buyerId, buyerBefore + 7_537.75);
  const refund = buyerPage.getByTestId('wallet-entry').filter({ hasText: `Refund ${run}` }).filter({ hasText: `+${naira(7_537.75)}` });
  await expect(refund).toHaveCount(1);
});
