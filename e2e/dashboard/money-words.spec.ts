import { api, DEMO, demoKey, demoUserId, expect, expectToast, signedInPage, test, unique } from './support';

/** Every confirmation says the exact naira each side pays and receives, and who bears the fee. */
const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test('with the fee split, the buyer reads what leaves the wallet, and what the seller receives on release', async ({ browser }) => {
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: 81_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string; milestone_fee: number }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Split fee ${unique()}`,
    description: 'Fee shared half each',
    buyer_id: ada,
    seller_id: tunde,
    commission_payer: 'SPLIT_50_50',
    milestones: [{ title: 'Laptops', description: 'Two laptops', amount: 80_000, due_date: new Date(Date.now() + 14 * 86_400_000).toISOString() }],
  });
  expect(tx.milestones[0]!.milestone_fee).toBe(800);

  const buyer = await signedInPage(browser, DEMO.buyer);
  await buyer.goto(`/transactions/${tx.id}`);
  const milestone = buyer.getByTestId('milestone-1');
  await expect(milestone).toContainText(`${naira(800)}, paid by you and the seller, half each`);
  await milestone.getByRole('button', { name: 'Fund milestone' }).click();
  await expect(buyer.getByRole('dialog')).toContainText(
    `${naira(80_400)} moves from your wallet into this milestone's escrow: ${naira(80_000)} and ${naira(400)} of the ${naira(800)} fee (paid by you and the seller, half each).`,
  );
  await buyer.getByRole('dialog').getByRole('button', { name: /Fund/ }).click();
  await expectToast(buyer, /fund/i);
  // The summary's funded sum is above the total by the fee share, and says so.
  await expect(buyer.getByTestId('funded')).toHaveText(`Funded ${naira(80_400)} (${naira(80_000)} and ${naira(400)} of your fee share)`);

  await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/deliver`, { seller_id: tunde, proofs_of_completion: ['https://example.com/laptops.pdf'] });
  await buyer.reload();
  await milestone.getByRole('button', { name: 'Accept delivery' }).click();
  await expect(buyer.getByRole('dialog')).toContainText(
    `${naira(80_400)} held in escrow is released. The seller receives ${naira(79_600)} (${naira(80_000)} less ${naira(400)} of the fee); the ${naira(800)} fee is charged then.`,
  );
  await buyer.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await buyer.context().close();
});
