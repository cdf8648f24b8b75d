import { api, DEMO, demoKey, demoUserId, expect, expectToast, signedInPage, test, unique } from './support';

/**
 * Issue #25 item 4 through the browser: after the seller rejects a return, the buyer sees the deadline for
 * opening the dispute and opens it itself, instead of waiting on the seller with its money held.
 */
const inThreeWeeks = () => new Date(Date.now() + 21 * 86_400_000).toISOString();

test('the buyer sees the dispute-opening deadline after a rejected return and opens the dispute itself', async ({ browser }) => {
  const [ada, tunde] = [await demoUserId('ada.obi'), await demoUserId('tunde.balogun')];
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: 60_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Return refused ${unique()}`,
    description: 'Browser suite: money held after a rejected return',
    buyer_id: ada,
    seller_id: tunde,
    commission_payer: 'BUYER_100',
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 25_000, due_date: inThreeWeeks() }],
  });
  const m = tx.milestones[0]!.id;
  const proof = 'https://example.com/waybill.pdf';
  await api(demoKey(), 'POST', `/v1/milestones/${m}/fund`, { buyer_id: ada });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: tunde, proofs_of_completion: [proof] });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/reject`, { buyer_id: ada, rejection_reason: 'Wrong colour', proofs_of_return: [proof] });
  await api(demoKey(), 'PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: tunde });

  const buyer = await signedInPage(browser, DEMO.buyer);
  await buyer.goto(`/transactions/${tx.id}`);
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
  await expect(buyer.getByTestId('thread-entry').first()).toContainText('Buyer opened the dispute');

  const disputeId = buyer.url().split('/').at(-1)!;
  expect((await api<{ opened_by: string }>(demoKey(), 'GET', `/v1/dispute/${disputeId}`)).opened_by).toBe('buyer');
});
