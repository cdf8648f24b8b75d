import { api, DEMO, demoKey, demoUserId, expect, expectToast, pngImage, signedInPage, test, unique } from './support';

/**
 * A session that ends mid-flow keeps the person's place: they sign in again over the page, the dialog and its
 * uploaded proof are still there, and the step goes through; a page asked for while signed out comes back after
 * sign-in. Ending the session here is what a browser does when its cookie expires: the cookie goes.
 */
async function fundedMilestone(): Promise<{ transactionId: string; milestoneId: string }> {
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: 12_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Signed out midway ${unique()}`,
    description: 'Browser suite: sessions',
    buyer_id: ada,
    seller_id: tunde,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 10_000, due_date: new Date(Date.now() + 14 * 86_400_000).toISOString() }],
  });
  await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/fund`, { buyer_id: ada });
  return { transactionId: tx.id, milestoneId: tx.milestones[0]!.id };
}

test('signed out with a proof uploaded: signing in again over the page keeps the dialog and its file, and the delivery goes through', async ({ browser }) => {
  const { transactionId, milestoneId } = await fundedMilestone();
  const seller = await signedInPage(browser, DEMO.seller);
  await seller.goto(`/transactions/${transactionId}`);
  const milestone = seller.getByTestId('milestone-1');
  await milestone.getByRole('button', { name: 'Deliver with proof' }).click();
  const deliverDialog = seller.getByRole('dialog', { name: 'Deliver this milestone' });
  await deliverDialog.getByLabel('Proof of delivery').setInputFiles({ name: 'waybill.png', mimeType: 'image/png', buffer: pngImage([30, 140, 70]) });
  const attached = deliverDialog.getByRole('list', { name: 'Attached files' });
  await expect(attached.getByRole('listitem').filter({ hasText: 'waybill.png' })).toHaveAttribute('data-upload', 'uploaded');

  await seller.context().clearCookies();
  await deliverDialog.getByRole('button', { name: 'Mark as delivered' }).click();
  const prompt = seller.getByRole('dialog', { name: 'Your session has ended' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('nothing was sent');
  // Nothing moved while signed out.
  expect((await api<{ status: string }>(demoKey(), 'GET', `/v1/milestones/${milestoneId}`)).status).toBe('IN_PROGRESS');

  await prompt.getByLabel('Email').fill(DEMO.seller.email);
  await prompt.getByLabel('Password').fill(DEMO.seller.password);
  await prompt.getByRole('button', { name: 'Sign in' }).click();
  await expect(prompt).toBeHidden();
  await expectToast(seller, 'You are signed in again');
  await expect(seller).toHaveURL(new RegExp(`/transactions/${transactionId}$`));
  await expect(attached.getByRole('listitem').filter({ hasText: 'waybill.png' })).toHaveAttribute('data-upload', 'uploaded');

  await deliverDialog.getByRole('button', { name: 'Mark as delivered' }).click();
  await expectToast(seller, /deliver/i);
  await expect(milestone.locator('[data-status]')).toHaveAttribute('data-status', 'UNDER_INSPECTION');
  const delivered = await api<{ proofs_of_completion: string[] }>(demoKey(), 'GET', `/v1/milestones/${milestoneId}`);
  expect(delivered.proofs_of_completion).toHaveLength(1);
  await seller.context().close();
});

test('a page asked for while signed out comes back after sign-in, and says why sign-in was asked', async ({ browser }) => {
  const { transactionId } = await fundedMilestone();
  const buyer = await signedInPage(browser, DEMO.buyer);
  await buyer.context().clearCookies();
  await buyer.goto(`/transactions/${transactionId}`);
  await expect(buyer).toHaveURL(/\/login\?/);
  expect(new URL(buyer.url()).searchParams.get('next')).toBe(`/transactions/${transactionId}`);
  await expect(buyer.getByRole('status')).toContainText('Your session has ended');
  await buyer.getByLabel('Email').fill(DEMO.buyer.email);
  await buyer.getByLabel('Password').fill(DEMO.buyer.password);
  await buyer.getByRole('button', { name: 'Sign in' }).click();
  await buyer.waitForURL(new RegExp(`/transactions/${transactionId}$`));
  await expect(buyer.getByTestId('milestone-1')).toBeVisible();
  await buyer.context().close();
});
