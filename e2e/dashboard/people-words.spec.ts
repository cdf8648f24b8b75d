import { api, DEMO, demoKey, demoReturnRejected, expect, signedInPage, test, unique } from './support';

/**
 * What each person reads is said for them: a client admin is told whom to ask about a server setting rather than
 * its variable, the dispute log names the mediation from the reader's side, and every page has an icon.
 */

test('every page’s /favicon.ico is an image', async ({ request }) => {
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toMatch(/^image\//);
  expect((await icon.body()).length).toBeGreaterThan(0);
});

test('a client admin is told to ask the people who run the server, never given a server variable', async ({ browser }) => {
  const page = await signedInPage(browser, DEMO.admin);
  for (const path of ['/admin/webhooks', '/admin/outbox']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    const text = await page.locator('main').innerText();
    expect(text, path).toContain('the people who run this Escrow Desk server');
    expect(text, path).not.toMatch(/SMTP_URL|ESCROW_WEBHOOKS_ALLOW_PRIVATE/);
  }
  await page.context().close();
});

test('the dispute log says whose mediation it is, from the reader’s side', async ({ browser }) => {
  const title = `Mediation words ${unique()}`;
  const { ada, tunde, milestoneId, transactionId } = await demoReturnRejected({ title, description: 'Browser suite: mediation words', amount: 3_000, walletFunds: 3_000, rejectionReason: 'Wrong colour' });
  const dispute = await api<{ id: string }>(demoKey(), 'POST', '/v1/dispute/create', { description: 'The colour was as ordered', buyer_id: ada, seller_id: tunde, milestone_id: milestoneId });
  const readers = [
    { who: DEMO.buyer, path: `/disputes/${dispute.id}`, words: 'mediation between you and the seller runs until' },
    { who: DEMO.seller, path: `/disputes/${dispute.id}`, words: 'mediation between you and the buyer runs until' },
    { who: DEMO.seller, path: `/transactions/${transactionId}`, words: 'mediation between you and the buyer runs until' },
    { who: DEMO.admin, path: `/disputes/${dispute.id}`, words: 'mediation between the buyer and the seller runs until' },
  ];
  for (const reader of readers) {
    const page = await signedInPage(browser, reader.who);
    await page.goto(reader.path);
    await expect(page.getByText(reader.words).first(), `${reader.who.email} on ${reader.path}`).toBeVisible();
    expect(await page.locator('main').innerText()).not.toMatch(/intra-party/i);
    await page.context().close();
  }
});
