import type { Page } from '@playwright/test';
import { acceptInviteAndSignIn, createCustomerInDashboard } from './staging';
import { api, DEMO, demoKey, expect, expectToast, shot, signedInPage, test, unique } from './support';

/**
 * "Needs your action" lists every deal where the signed-in customer owes a step now, dispute steps included,
 * each with its deadline, the soonest first; a step that is the other party's turn stays under "Everything else".
 */
test.describe.configure({ mode: 'serial' });

const run = unique();
const buyer = { first: 'Chidi', last: 'Okafor', email: `chidi.${run}@e2e.escrowdesk.ng`, password: 'chidi-password-1' };
const seller = { first: 'Ngozi', last: 'Eze', email: `ngozi.${run}@e2e.escrowdesk.ng`, password: 'ngozi-password-1' };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

let buyerPage: Page;
let sellerPage: Page;
let buyerId = '';
let sellerId = '';
const deals = { fund: `Unfunded ${run}`, inspect: `Inspection ${run}`, dispute: `Disputed ${run}` };
let disputeId = '';

const needs = (page: Page) => page.getByRole('region', { name: /Needs your action/ });
const others = (page: Page) => page.getByRole('region', { name: 'Everything else' });
const row = (section: ReturnType<typeof needs>, title: string) => section.getByRole('listitem').filter({ hasText: title });

async function userId(email: string): Promise<string> {
  const list = await api<{ users: Array<{ id: string; email: string }> }>(demoKey(), 'GET', `/v1/users?page=1&limit=5&sort=DESC&search=${encodeURIComponent(email)}`);
  const found = list.users.find((u) => u.email === email);
  if (!found) throw new Error(`${email} missing`);
  return found.id;
}

async function deal(title: string, inspectionDays = 3): Promise<string> {
  const tx = await api<{ milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Staged for the to-do list',
    buyer_id: buyerId,
    seller_id: sellerId,
    milestones: [{ title: `${title} milestone`, description: 'Everything', amount: 20_000, due_date: inDays(20), inspection_duration: inspectionDays }],
  });
  return tx.milestones[0]!.id;
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
  [buyerId, sellerId] = await Promise.all([userId(buyer.email), userId(seller.email)]);
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: buyerId, amount: 100_000 });

  await deal(deals.fund);
  // Delivered with a 10-day inspection: the buyer's to accept or reject, by a deadline later than the dispute's.
  const inspected = await deal(deals.inspect, 10);
  await api(demoKey(), 'POST', `/v1/milestones/${inspected}/fund`, { buyer_id: buyerId });
  await api(demoKey(), 'POST', `/v1/milestones/${inspected}/deliver`, { seller_id: sellerId, proofs_of_completion: ['https://example.com/delivery.pdf'] });
  // In mediation, the seller has proposed an amount: the buyer's turn to answer, by the mediation deadline.
  const disputed = await deal(deals.dispute, 2);
  await api(demoKey(), 'POST', `/v1/milestones/${disputed}/fund`, { buyer_id: buyerId });
  await api(demoKey(), 'POST', `/v1/milestones/${disputed}/deliver`, { seller_id: sellerId, proofs_of_completion: ['https://example.com/delivery.pdf'] });
  await api(demoKey(), 'POST', `/v1/milestones/${disputed}/reject`, { buyer_id: buyerId, rejection_reason: 'Wrong size', proofs_of_return: ['https://example.com/waybill.pdf'] });
  await api(demoKey(), 'PATCH', `/v1/milestones/${disputed}/reject/disapprove`, { seller_id: sellerId });
  disputeId = (await api<{ id: string }>(demoKey(), 'POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: buyerId, seller_id: sellerId, milestone_id: disputed })).id;
  await api(demoKey(), 'PATCH', `/v1/dispute/${disputeId}/add-dispute-amount`, { seller_id: sellerId, dispute_amount: 12_000 });
});

test('the buyer’s list holds the dispute answer, the inspection and the funding, the most pressing first, each by its deadline', async () => {
  await buyerPage.goto('/transactions');
  const list = needs(buyerPage);
  await expect(list.getByRole('listitem')).toHaveCount(3);
  const dispute = await api<{ deadlines: Array<{ due_at: string }> }>(demoKey(), 'GET', `/v1/dispute/${disputeId}`);
  await expect(row(list, deals.dispute)).toContainText('Your move: Answer the proposed amount');
  await expect(row(list, deals.dispute).getByTestId('turn-due').locator('time')).toHaveAttribute('datetime', dispute.deadlines[0]!.due_at);
  await expect(row(list, deals.dispute).getByTestId('turn-due')).toHaveText(/^by .+ WAT$/);
  await expect(row(list, deals.inspect)).toContainText('Your move: Accept or reject');
  await expect(row(list, deals.fund)).toContainText('Your move: Fund');
  await expect(row(list, deals.fund).getByTestId('turn-due')).toHaveCount(0);
  // Soonest deadline first; a step with no deadline after those with one.
  await expect(list.getByRole('listitem')).toContainText([deals.dispute, deals.inspect, deals.fund]);
  await shot(buyerPage, 'needs-your-action-buyer');

  // The dispute step links to the dispute, where it is taken.
  await row(list, deals.dispute).getByRole('link').click();
  await buyerPage.waitForURL(new RegExp(`/disputes/${disputeId}$`));
  await expect(buyerPage.getByTestId('amount-on-the-table')).toHaveText('₦12,000.00, proposed by the seller; waiting for you');
  await expect(buyerPage.getByTestId('thread-entry').filter({ hasText: 'Seller proposed ₦12,000.00' })).toContainText('Your answer is awaited');
});

test('the seller waits on all three: nothing needs them, until the dispute reaches evidence', async () => {
  await sellerPage.goto('/transactions');
  await expect(needs(sellerPage)).toContainText('Nothing is waiting for you.');
  await expect(others(sellerPage).getByRole('listitem')).toHaveCount(3);

  await api(demoKey(), 'PATCH', `/v1/dispute/${disputeId}/escalate`, { buyer_id: buyerId });
  await sellerPage.reload();
  await expect(row(needs(sellerPage), deals.dispute)).toContainText('Your move: Submit evidence');
  await buyerPage.goto('/transactions');
  await expect(row(needs(buyerPage), deals.dispute)).toContainText('Your move: Submit evidence');
});

test('once the buyer has sent evidence, the dispute leaves the buyer’s list and stays on the seller’s', async () => {
  await row(needs(buyerPage), deals.dispute).getByRole('link').click();
  await buyerPage.waitForURL(new RegExp(`/disputes/${disputeId}$`));
  const form = buyerPage.getByRole('form', { name: 'Submit evidence' });
  await form.getByLabel('Your account of what happened').fill('The jacket was a size too small, as the label shows.');
  await form.getByRole('button', { name: 'Submit evidence' }).click();
  await buyerPage.getByRole('dialog').getByRole('button', { name: 'Send evidence' }).click();
  await expectToast(buyerPage, /evidence/i);

  // Mediation is over: the seller's unanswered proposal is no longer shown as waiting, and nothing is on the table.
  await expect(buyerPage.getByTestId('amount-on-the-table')).toHaveText('None: mediation ended without an agreed amount');
  await expect(buyerPage.getByTestId('thread-entry').filter({ hasText: 'Seller proposed ₦12,000.00' })).toContainText('Not answered before mediation ended');
  await expect(buyerPage.getByTestId('thread-entry').filter({ hasText: 'Awaiting the' })).toHaveCount(0);

  await buyerPage.goto('/transactions');
  await expect(needs(buyerPage).getByRole('listitem')).toHaveCount(2);
  await expect(row(others(buyerPage), deals.dispute)).toBeVisible();
  await sellerPage.reload();
  await expect(row(needs(sellerPage), deals.dispute)).toContainText('Your move: Submit evidence');
});
