import type { Page } from '@playwright/test';
import { api, confirm, DEMO, demoKey, demoUserId, expect, expectToast, pngImage, shot, signedInPage, test, unique } from './support';

/**
 * Issue 4 through the browser: the dispute process after mediation (escalation, evidence from both sides,
 * the evidence window closed by the sandbox test clock, the dispute team's verdict, the split in both
 * wallets) and a lapsed inspection accepting a delivery by itself. Runs after every other spec (its own
 * project): the test clock moves the whole demo client's time.
 */
test.describe.configure({ mode: 'serial' });

const inThreeWeeks = () => new Date(Date.now() + 21 * 86_400_000).toISOString();
const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

type Tx = { id: string; milestones: Array<{ id: string }> };
type Wallet = { balance: number };

let ada = '';
let tunde = '';
let buyer: Page;
let seller: Page;
let admin: Page;

const balance = async (id: string) => (await api<Wallet>(demoKey(), 'GET', `/v1/wallets/${id}`)).balance;

/** A funded, delivered milestone between Ada (buyer) and Tunde (seller). */
async function deliveredMilestone(title: string, amount: number, inspectionDays?: number): Promise<{ transactionId: string; milestoneId: string }> {
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: amount * 2 });
  const tx = await api<Tx>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Browser suite: dispute process and lapses',
    buyer_id: ada,
    seller_id: tunde,
    commission_payer: 'BUYER_100',
    milestones: [{ title: 'Only milestone', description: 'Everything', amount, due_date: inThreeWeeks(), ...(inspectionDays ? { inspection_duration: inspectionDays } : {}) }],
  });
  const m = tx.milestones[0]!.id;
  await api(demoKey(), 'POST', `/v1/milestones/${m}/fund`, { buyer_id: ada });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: tunde, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  return { transactionId: tx.id, milestoneId: m };
}

async function advanceClock(page: Page, amount: number, unit: 'hours' | 'days') {
  await page.goto('/admin/sandbox');
  const form = page.getByRole('form', { name: 'Advance the test clock' });
  await form.getByLabel('Advance by').fill(String(amount));
  await form.getByLabel('Unit').selectOption(unit);
  await form.getByRole('button', { name: 'Advance clock' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Advance' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByTestId('test-clock-settled')).toBeVisible();
}

async function submitEvidence(page: Page, text: string, file: { name: string; rgb: [number, number, number] }) {
  const form = page.getByRole('form', { name: 'Submit evidence' });
  await expect(form.getByTestId('deadline-evidence_submission').getByTestId('countdown')).toHaveText(/left$/);
  await form.getByLabel('Your account of what happened').fill(text);
  await form.getByLabel('Files (photos, documents, recordings)').setInputFiles({ name: file.name, mimeType: 'image/png', buffer: pngImage(file.rgb) });
  await expect(form.getByRole('list', { name: 'Attached files' })).toContainText(file.name);
  await form.getByRole('button', { name: 'Submit evidence' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send evidence' }).click();
  await expectToast(page, /evidence/i);
}

test.beforeAll(async ({ browser }) => {
  [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  buyer = await signedInPage(browser, DEMO.buyer);
  seller = await signedInPage(browser, DEMO.seller);
  admin = await signedInPage(browser, DEMO.admin);
});

test('evidence from both parties → the admin advances the test clock past the window → the dispute team decides → both wallets show the split', async ({ browser }) => {
  const amount = 40_000;
  const { milestoneId } = await deliveredMilestone(`Cold-room compressor ${unique()}`, amount);
  await api(demoKey(), 'POST', `/v1/milestones/${milestoneId}/reject`, { buyer_id: ada, rejection_reason: 'The compressor does not cool', proofs_of_return: ['https://example.com/return.jpg'] });
  await api(demoKey(), 'PATCH', `/v1/milestones/${milestoneId}/reject/disapprove`, { seller_id: tunde });
  const dispute = await api<{ id: string; dispute_code: string }>(demoKey(), 'POST', '/v1/dispute/create', {
    description: 'The compressor was tested before it left; the buyer installed it wrongly.',
    buyer_id: ada,
    seller_id: tunde,
    milestone_id: milestoneId,
  });
  const page = `/disputes/${dispute.id}`;

  // The seller sees both escalation and withdrawal; the buyer escalates.
  await seller.goto(page);
  await expect(seller.getByRole('button', { name: 'Withdraw dispute' })).toBeVisible();
  await expect(seller.getByRole('button', { name: 'Escalate to the dispute team' })).toBeVisible();
  await buyer.goto(page);
  await expect(buyer.getByRole('button', { name: 'Withdraw dispute' })).toHaveCount(0);
  await confirm(buyer, 'Escalate to the dispute team', 'Escalate');
  await expectToast(buyer, /escalat/i);
  await expect(buyer.getByTestId('countdown').first()).toBeVisible();
  await expect(buyer.locator('[data-status="EVIDENCE_SUBMISSION"]')).toBeVisible();

  await submitEvidence(buyer, 'The unit never got below 12 °C. Photo of the thermometer after 24 hours attached.', { name: 'thermometer.png', rgb: [30, 120, 200] });
  await expect(buyer.getByTestId('evidence-buyer')).toContainText('never got below 12');
  await shot(buyer, 'dispute-evidence-buyer');

  await seller.reload();
  await expect(seller.getByTestId('evidence-buyer')).toContainText('never got below 12');
  await submitEvidence(seller, 'Factory test sheet attached: the unit held 2 °C for 48 hours before dispatch.', { name: 'test-sheet.png', rgb: [200, 80, 40] });
  await expect(seller.getByTestId('evidence-seller').getByRole('img', { name: 'test-sheet.png' })).toBeVisible();
  await expect(seller.getByTestId('evidence-buyer').getByRole('img', { name: 'thermometer.png' })).toBeVisible();
  await shot(seller, 'dispute-evidence-both');
  // The page links each file with a link signed for its reader alone: the buyer cannot use the seller's.
  const thermometer = seller.getByTestId('evidence-buyer').getByRole('img', { name: 'thermometer.png' });
  await expect.poll(() => thermometer.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { message: 'the evidence image loads' }).toBeGreaterThan(0);
  const sellersLink = (await thermometer.getAttribute('src'))!;
  expect(sellersLink).toMatch(/^\/proofs\/[0-9a-f-]{36}\?t=\d+\.[\w-]{43}$/);
  expect((await seller.request.get(sellersLink)).status()).toBe(200);
  expect((await buyer.request.get(sellersLink)).status()).toBe(404);

  // The sandbox admin closes the evidence window (3 business days; 7 calendar days always covers it).
  await advanceClock(admin, 7, 'days');
  await shot(admin, 'admin-test-clock');
  await buyer.reload();
  await expect(buyer.locator('[data-status="ARBITRATION"]')).toBeVisible();
  await expect(buyer.getByText('The dispute team is reviewing both sides')).toBeVisible();

  const [buyerBefore, sellerBefore, held] = await Promise.all([
    balance(ada),
    balance(tunde),
    api<{ milestone: { milestone_escrow: { balance: number } } }>(demoKey(), 'GET', `/v1/dispute/${dispute.id}`).then((d) => d.milestone.milestone_escrow.balance),
  ]);
  const team = await signedInPage(browser, DEMO.disputes);
  await expect(team.getByRole('heading', { name: 'Arbitration queue' })).toBeVisible();
  await expect(team.getByRole('link', { name: 'Test clock' })).toHaveCount(0);
  await shot(team, 'dispute-team-queue');
  await team.getByRole('link', { name: dispute.dispute_code }).click();
  await expect(team.getByRole('heading', { name: `Dispute ${dispute.dispute_code}` })).toBeVisible();
  await expect(team.getByTestId('evidence-buyer').getByRole('img', { name: 'thermometer.png' })).toBeVisible();
  await expect(team.getByTestId('evidence-seller').getByRole('img', { name: 'test-sheet.png' })).toBeVisible();
  const verdict = team.getByRole('form', { name: 'Verdict' });
  await expect(verdict).toContainText(`From ₦0.00 to ${naira(amount)}`);
  await verdict.getByLabel("Seller's share (₦)").fill(String(amount + 1));
  await verdict.getByLabel('Reason').fill('Both sides showed a working test; the installation was outside the seller’s control, so the cost is shared.');
  await verdict.getByRole('button', { name: 'Give verdict' }).click();
  await expect(verdict.getByText(`must be between ₦0.00 and ${naira(amount)}`)).toBeVisible();
  await verdict.getByLabel("Seller's share (₦)").fill('25000');
  await verdict.getByRole('button', { name: 'Give verdict' }).click();
  await expect(team.getByRole('dialog')).toContainText('The seller receives ₦25,000.00');
  await shot(team, 'dispute-team-verdict-confirm');
  await team.getByRole('dialog').getByRole('button', { name: 'Confirm verdict' }).click();
  await expectToast(team, /verdict|resolved|decid/i);
  await expect(team.getByTestId('dispute-outcome')).toContainText('Decided by the dispute team');
  await shot(team, 'dispute-team-decided');

  // The split: the seller's share to the seller (the buyer paid the fee); the rest of the escrow, less the
  // fee the API keeps on the part that was paid out, back to the buyer. The wallets show exactly that.
  const [buyerAfter, sellerAfter] = await Promise.all([balance(ada), balance(tunde)]);
  expect(Math.round((sellerAfter - sellerBefore) * 100)).toBe(2_500_000);
  const refunded = Math.round((buyerAfter - buyerBefore) * 100);
  expect(refunded).toBeGreaterThanOrEqual(Math.round((amount - 25_000) * 100));
  expect(refunded).toBeLessThanOrEqual(Math.round(held * 100) - 2_500_000);
  for (const [who, after] of [[buyer, buyerAfter], [seller, sellerAfter]] as const) {
    await who.goto(page);
    await expect(who.getByTestId('dispute-outcome')).toContainText('The dispute team awarded the seller ₦25,000.00');
    await expect(who.getByTestId('dispute-outcome')).toContainText(who === seller ? 'You received ₦25,000.00' : 'The seller received ₦25,000.00');
    await expect(who.getByTestId('dispute-outcome')).toContainText('installation was outside');
    await who.goto('/wallet');
    await expect(who.getByTestId('wallet-balance')).toHaveText(naira(after));
  }
  await buyer.goto(page);
  await shot(buyer, 'dispute-outcome-buyer');
  await seller.goto('/wallet');
  await shot(seller, 'seller-wallet-after-verdict');
});

test('a lapsed inspection accepts the delivery by itself, and the buyer sees why', async () => {
  const { transactionId } = await deliveredMilestone(`Tiles for the lobby ${unique()}`, 12_000, 1);
  await buyer.goto(`/transactions/${transactionId}`);
  await expect(buyer.getByTestId('milestone-1').getByTestId('deadline-inspection')).toBeVisible();
  await advanceClock(admin, 30, 'hours');
  await buyer.reload();
  const m = buyer.getByTestId('milestone-1');
  await expect(m.locator('[data-status="COMPLETED"]')).toBeVisible();
  await expect(m.getByTestId('lapse-note')).toContainText('Accepted automatically');
  await expect(m.getByTestId('lapse-note')).toContainText('Inspection period ended without an answer from the buyer');
  const log = m.locator('details');
  if (!(await log.evaluate((d) => (d as HTMLDetailsElement).open))) await log.locator('summary').click();
  await expect(m.locator('li[data-automatic]').getByText('automatic', { exact: true })).toBeVisible();
  await shot(buyer, 'lapsed-inspection-buyer');
});

test('countdowns count against the client’s test clock, and a browser in New York reads the deadline in WAT', async ({ browser }) => {
  const { transactionId } = await deliveredMilestone(`Ceiling fans ${unique()}`, 15_000, 5);
  const deadline = () => buyer.getByTestId('milestone-1').getByTestId('deadline-inspection');
  // The demo client's clock is days ahead of real time by now (the tests above moved it): five days are left on it.
  await buyer.goto(`/transactions/${transactionId}`);
  await expect(deadline().getByTestId('countdown')).toHaveText(/^4d 23h \d+m left$/);
  await advanceClock(admin, 2, 'days');
  await buyer.reload();
  await expect(deadline().getByTestId('countdown')).toHaveText(/^2d 23h \d+m left$/);
  const lagosText = await deadline().locator('time').textContent();
  expect(lagosText).toMatch(/ WAT$/);

  const newYork = await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL, timezoneId: 'America/New_York' });
  const page = await newYork.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO.buyer.email);
  await page.getByLabel('Password').fill(DEMO.buyer.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/transactions$/);
  await page.goto(`/transactions/${transactionId}`);
  await expect(page.getByTestId('milestone-1').getByTestId('deadline-inspection').locator('time')).toHaveText(lagosText!);
  await newYork.close();
});

test('a test clock moved through the API straight away is the one the next page counts against', async () => {
  const { transactionId } = await deliveredMilestone(`Desk lamps ${unique()}`, 12_000, 5);
  const countdown = () => buyer.getByTestId('milestone-1').getByTestId('deadline-inspection').getByTestId('countdown');
  await buyer.goto(`/transactions/${transactionId}`);
  await expect(countdown()).toHaveText(/^4d 23h \d+m left$/);
  // Not through the dashboard: the dashboard keeps the clock it read and must hear of the move by itself.
  await api(demoKey(), 'POST', '/v1/test-clock/advance', { seconds: 86_400 });
  await buyer.reload();
  await expect(countdown()).toHaveText(/^3d 23h \d+m left$/);
});
