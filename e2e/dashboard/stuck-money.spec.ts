import { api, DEMO, demoKey, demoReturnRejected, expect, expectToast, signedInPage, test, unique } from './support';

/**
 * Issue #25 item 4 through the browser: after the seller rejects a return, the buyer sees the deadline for
 * opening the dispute and opens it itself, instead of waiting on the seller with its money held.
 */

test('the buyer sees the dispute-opening deadline after a rejected return and opens the dispute itself', async ({ browser }) => {
  const { transactionId } = await demoReturnRejected({
    title: `Return refused ${unique()}`,
    description: 'Browser suite: money held after a rejected return',
    amount: 25_000,
    walletFunds: 60_000,
    commissionPayer: 'BUYER_100',
    rejectionReason: 'Wrong colour',
  });

  const buyer = await signedInPage(browser, DEMO.buyer);
  await buyer.goto(`/transactions/${transactionId}`);
  const deadline = buyer.getByTestId('deadline-dispute_opening');
  await expect(deadline).toContainText('A dispute must be opened by');
  await expect(deadline).toContainText('If neither party opens a dispute by then, the service opens it');

  await buyer.getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = buyer.getByRole('dialog');
  await expect(dialog).toContainText('the seller proposes how much');
  await dialog.getByLabel('What is the dispute about?').fill('The seller refuses to take back the wrong colour');
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await expectToast(buyer, /Dispute created/);
  await expect(buyer).toHaveURL(/\/disputes\/[0-9a-f-]+$/);
  await expect(buyer.getByTestId('thread-entry').first()).toContainText('You opened the dispute');

  const disputeId = buyer.url().split('/').at(-1)!;
  expect((await api<{ opened_by: string }>(demoKey(), 'GET', `/v1/dispute/${disputeId}`)).opened_by).toBe('buyer');
});
