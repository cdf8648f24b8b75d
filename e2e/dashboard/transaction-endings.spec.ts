import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';

/**
 * Ending a transaction early through the browser (docs/decisions.md §13): the seller asks to cancel a funded
 * transaction, the buyer reads the request and approves it, and the buyer's wallet gets the escrow back;
 * an unfunded one is canceled by the buyer at once. At a phone's width, with no serious axe violation.
 */
test.describe.configure({ mode: 'serial' });

const inThreeWeeks = () => new Date(Date.now() + 21 * 86_400_000).toISOString();
const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

let ada = '';
let tunde = '';
let buyer: Page;
let seller: Page;

async function transaction(title: string, amount: number, funded: boolean): Promise<string> {
  if (funded) await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: amount * 2 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Browser suite: ending a transaction early',
    buyer_id: ada,
    seller_id: tunde,
    commission_payer: 'BUYER_100',
    milestones: [{ title: 'Only milestone', description: 'Everything', amount, due_date: inThreeWeeks() }],
  });
  if (funded) await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/fund`, { buyer_id: ada });
  return tx.id;
}

test.beforeAll(async ({ browser }) => {
  ada = await demoUserId('ada.obi');
  tunde = await demoUserId('tunde.balogun');
  buyer = await signedInPage(browser, DEMO.buyer);
  seller = await signedInPage(browser, DEMO.seller);
});

test('buyer and seller cancel a funded transaction by agreement, and the escrow goes back to the buyer’s wallet', async () => {
  const title = `Cancelled by agreement ${unique()}`;
  const id = await transaction(title, 40_000, true);

  await seller.goto(`/transactions/${id}`);
  await seller.getByRole('button', { name: 'Cancel transaction' }).click();
  const dialog = seller.getByRole('dialog');
  await expect(dialog).toContainText('the other party must agree');
  await expect(dialog).toContainText(`${naira(40_400)} held in escrow goes back to the buyer's wallet`);
  await dialog.getByLabel('Why do you want to cancel?').fill('The generator model is discontinued');
  await dialog.getByRole('button', { name: 'Cancel the transaction' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(seller, /Cancellation requested/);
  await expect(seller.getByTestId('cancellation-request')).toContainText('You asked to cancel');
  await expect(seller.getByTestId('cancellation-request')).toContainText('Waiting for the buyer to answer');
  // Its deadline, and what silence does: a seller's request is approved (the buyer's money comes back).
  await expect(seller.getByTestId('cancellation-request')).toContainText(/Without an answer by .+ it is approved automatically\./);

  // The request waits for the buyer: it is under "Needs your action" with what to do.
  await buyer.goto('/transactions');
  await expect(buyer.getByRole('region', { name: /Needs your action/ }).getByRole('link', { name: new RegExp(title) })).toContainText(
    'Your move: Answer the cancellation request',
  );

  await buyer.setViewportSize({ width: 390, height: 844 });
  await buyer.goto(`/transactions/${id}`);
  await expect(buyer.getByTestId('cancellation-request')).toContainText('The seller asked to cancel');
  await expect(buyer.getByTestId('cancellation-request')).toContainText('“The generator model is discontinued”');
  expect(await horizontalOverflow(buyer)).toBe(0);
  expect(await seriousAxeViolations(buyer)).toEqual([]);
  await shot(buyer, 'cancellation-request-phone');
  await buyer.getByRole('button', { name: 'Approve cancellation' }).click();
  const confirm = buyer.getByRole('dialog');
  await expect(confirm).toContainText(`${naira(40_400)} held in escrow goes back to the buyer's wallet`);
  await confirm.getByRole('button', { name: 'Approve and cancel' }).click();
  await expect(confirm).toBeHidden();
  await expectToast(buyer, /Cancellation approved/);
  // The buyer's approval ended it: ended_by names who acted last.
  await expect(buyer.getByTestId('transaction-ended')).toContainText('You canceled this transaction');
  await expect(buyer.getByTestId('transaction-ended')).toContainText(`${naira(40_400)} in all went back to the buyer`);
  await expect(buyer.getByText('Canceled · refunded')).toBeVisible();
  const after = await api<{ total_amount_refunded: number; milestones: Array<{ milestone_escrow: { balance: number } }> }>(demoKey(), 'GET', `/v1/transactions/${id}`);
  expect(after.total_amount_refunded).toBe(40_400);
  expect(after.milestones[0]!.milestone_escrow.balance).toBe(0);

  // The wallet's history shows the refund.
  await buyer.goto('/wallet');
  await expect(buyer.getByTestId('wallet-entry').filter({ hasText: 'transaction canceled' }).first()).toContainText(`+${naira(40_400)}`);
  await seller.reload();
  await expect(seller.getByTestId('transaction-ended')).toContainText('The buyer canceled this transaction');
  await expect(seller.getByRole('button', { name: 'Cancel transaction' })).toHaveCount(0);
});

test('the buyer cancels an unfunded transaction at once: nothing moves', async () => {
  const title = `Cancelled unfunded ${unique()}`;
  const id = await transaction(title, 12_000, false);
  await buyer.setViewportSize({ width: 1280, height: 900 });
  await buyer.goto(`/transactions/${id}`);
  await buyer.getByRole('button', { name: 'Cancel transaction' }).click();
  const dialog = buyer.getByRole('dialog');
  await expect(dialog).toContainText('No money is held in escrow');
  await dialog.getByLabel('Why do you want to cancel?').fill('Bought elsewhere');
  await dialog.getByRole('button', { name: 'Cancel the transaction' }).click();
  await expectToast(buyer, /Transaction canceled/);
  await expect(buyer.getByTestId('transaction-ended')).toContainText('You canceled this transaction');
  await expect(buyer.getByRole('button', { name: 'Fund milestone' })).toHaveCount(0);
  expect((await api<{ total_amount_refunded: number; total_amount_funded: number }>(demoKey(), 'GET', `/v1/transactions/${id}`)).total_amount_funded).toBe(0);
});

test('the buyer rates the seller once the transaction is completed', async () => {
  const id = await transaction(`Rated ${unique()}`, 5_000, true);
  const t = await api<{ milestones: Array<{ id: string }> }>(demoKey(), 'GET', `/v1/transactions/${id}`);
  const m = t.milestones[0]!.id;
  await api(demoKey(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: tunde, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/approve`, { buyer_id: ada });
  const before = (await api<{ rating: { count: number } }>(demoKey(), 'GET', `/v1/users/${tunde}`)).rating.count;

  await buyer.goto(`/transactions/${id}`);
  await buyer.getByRole('button', { name: 'Rate the seller' }).click();
  const dialog = buyer.getByRole('dialog');
  await dialog.getByLabel('How was the seller?').selectOption('4');
  await dialog.getByLabel('Comment (optional)').fill('Delivered on time, well packed');
  await dialog.getByRole('button', { name: 'Send rating' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(buyer, /Rating recorded/);
  await expect(buyer.getByText('Thank you: you rated the seller for this transaction.')).toBeVisible();
  await expect(buyer.getByRole('button', { name: 'Rate the seller' })).toHaveCount(0);
  expect((await api<{ rating: { count: number } }>(demoKey(), 'GET', `/v1/users/${tunde}`)).rating.count).toBe(before + 1);
  expect((await api<{ has_buyer_rated: boolean }>(demoKey(), 'GET', `/v1/transactions/${id}`)).has_buyer_rated).toBe(true);
});
