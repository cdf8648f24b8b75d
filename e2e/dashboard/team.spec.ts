import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { acceptInviteAndSignIn } from './staging';
import { DEMO, expect, expectToast, shot, signedInPage, test, unique } from './support';

/**
 * A client's team (issue #26 item 4): the admin invites another admin and a read-only viewer, sends an
 * invite again, revokes one, and removes a member. A viewer sees what an admin sees, and every server
 * action of the dashboard refuses it, whatever it sends: each one is posted by hand, found in the build's
 * list of server actions, so an action added later is covered without touching this spec.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'viewer password 12345';
const READ_ONLY = 'You have read-only access to this marketplace';
const ROOT = path.resolve(__dirname, '../..');

let admin: Page;
let viewer: Page;
const viewerEmail = `viewer.${unique()}@demo-team.example`;
const secondAdminEmail = `second.admin.${unique()}@demo-team.example`;
const links: Record<string, string> = {};

async function invite(name: string, email: string, role: 'admin' | 'viewer'): Promise<string> {
  await admin.goto('/admin/team');
  const form = admin.getByRole('form', { name: 'Invite a team member' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Send invite' }).click();
  await expectToast(admin, `Invite emailed to ${email}`);
  return admin.getByTestId('invite-link').inputValue();
}

const accept = (browser: Browser, link: string, email: string) =>
  acceptInviteAndSignIn(browser, { base: process.env.DASHBOARD_BASE_URL!, link, email, password: PASSWORD, home: /\/admin\/overview$/ });

const row = (page: Page, email: string) => page.getByTestId('staff-row').filter({ hasText: email });

/** Every server action of the dashboard, as the build lists them, with a page path that serves it. */
function dashboardActions(): Array<{ id: string; name: string; file: string; path: string }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { workers: Record<string, unknown>; filename: string; exportedName: string }>;
  };
  return Object.entries(manifest.node)
    .filter(([, action]) => action.filename.startsWith('lib/actions/') && action.filename !== 'lib/actions/invite.ts')
    .map(([id, action]) => {
      const worker = Object.keys(action.workers).find((w) => w.startsWith('app/(dashboard)/')) ?? Object.keys(action.workers)[0]!;
      const route = worker
        .replace(/^app/, '')
        .replace(/\/page$/, '')
        .replace(/\/\([^)]+\)/g, '')
        .replace(/\[[^\]]+\]/g, '00000000-0000-4000-8000-000000000000');
      return { id, name: action.exportedName, file: action.filename, path: route || '/' };
    });
}

async function postAction(page: Page, action: { id: string; path: string }): Promise<string> {
  const response = await page.request.post(action.path, {
    headers: { 'next-action': action.id, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
    data: JSON.stringify([null]),
  });
  return response.text();
}

test.beforeAll(async ({ browser }) => {
  admin = await signedInPage(browser, DEMO.admin);
});

test('the admin invites a viewer and another admin; each signs in from the one-time link', async ({ browser }) => {
  links.viewer = await invite('Vera Viewer', viewerEmail, 'viewer');
  links.secondAdmin = await invite('Segun Second', secondAdminEmail, 'admin');
  await expect(row(admin, viewerEmail)).toContainText('viewer (read-only)');
  await expect(row(admin, viewerEmail)).toContainText('invited');
  // The invitation is in the client's outbox, its link never shown there.
  await admin.goto('/admin/outbox');
  await expect(admin.getByTestId('email-row').filter({ hasText: viewerEmail }).first()).toBeVisible();
  expect(await admin.locator('main').innerText()).not.toContain(new URL(links.viewer).pathname);

  viewer = await accept(browser, links.viewer, viewerEmail);
  await expect(viewer.getByTestId('read-only-note')).toBeVisible();
  await admin.goto('/admin/team');
  await expect(row(admin, viewerEmail)).toContainText('active');
  await shot(admin, 'admin-team');
});

test('a viewer sees what an admin sees and no team controls', async () => {
  for (const page of ['/admin/transactions', '/admin/customers', '/admin/payouts', '/admin/webhooks', '/admin/keys', '/admin/outbox']) {
    const response = await viewer.goto(page);
    expect(response?.status(), page).toBe(200);
    await expect(viewer.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await viewer.goto('/admin/customers');
  // Other specs add customers meanwhile: Ada may be past the first page, so the viewer searches, as an admin would.
  await viewer.getByLabel('Search by name or email').fill('ada.obi@demo.escrowdesk.ng');
  await expect(viewer.getByRole('link', { name: /Ada Obi/ }).first()).toBeVisible();
  await viewer.goto('/admin/team');
  await expect(viewer.getByRole('form', { name: 'Invite a team member' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expect(viewer.getByText('You have read-only access: an admin invites and removes team members.')).toBeVisible();
  await shot(viewer, 'viewer-team');
});

test('every dashboard server action refuses a viewer, whatever it sends; the admin is not refused', async () => {
  const actions = dashboardActions();
  // The dashboard's actions as of this spec: a drop means the build's list changed shape, not that actions vanished.
  expect(actions.length).toBeGreaterThanOrEqual(40);
  const refusedFor = new Map<string, string>();
  for (const action of actions) {
    const answer = await postAction(viewer, action);
    if (action.name === 'markRead' || action.name === 'markAllRead') {
      // Reading one's own notifications changes nothing of the client's: a viewer may.
      expect(answer, action.name).not.toContain(READ_ONLY);
      continue;
    }
    if (action.name === 'answerCheckout') {
      // The sandbox payment page's Pay and Decline need no session: the checkout's unguessable reference is the
      // credential (docs/decisions.md §16), and a post without one finds no payment.
      expect(answer, action.name).toContain('There is no such payment.');
      continue;
    }
    if (!answer.includes(READ_ONLY)) refusedFor.set(`${action.file}#${action.name}`, answer.slice(0, 200));
  }
  expect([...refusedFor.entries()]).toEqual([]);
  // The same posts from the admin are read and judged (the input is refused, not the person).
  for (const action of actions.slice(0, 10)) {
    const answer = await postAction(admin, action);
    expect(answer, action.name).not.toContain(READ_ONLY);
  }
  // Through the page as well: the viewer's click is refused with the same words, and nothing changes.
  await viewer.goto('/admin/keys');
  const before = await viewer.getByRole('list', { name: 'Secret keys' }).locator('li').count();
  await viewer.getByRole('button', { name: 'Roll secret key' }).click();
  await viewer.getByRole('dialog').getByRole('button', { name: 'Roll the key' }).click();
  await expectToast(viewer, READ_ONLY, 'error');
  await viewer.reload();
  await expect(viewer.getByRole('list', { name: 'Secret keys' }).locator('li')).toHaveCount(before);
});

test('an invite sent again replaces the first link; a revoked one stops working', async ({ browser }) => {
  await admin.goto('/admin/team');
  await row(admin, secondAdminEmail).getByRole('button', { name: `Send the invite to ${secondAdminEmail} again` }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Send it' }).click();
  await expectToast(admin, 'A new invite was emailed');
  const fresh = await admin.getByTestId('invite-link').inputValue();
  expect(fresh).not.toBe(links.secondAdmin);
  const stale = await (await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL })).newPage();
  await stale.goto(new URL(links.secondAdmin!).pathname);
  await expect(stale.getByText('This invite link has expired or was already used')).toBeVisible();

  await row(admin, secondAdminEmail).getByRole('button', { name: `Revoke the invite to ${secondAdminEmail}` }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expectToast(admin, `The invite to ${secondAdminEmail} was revoked`);
  await expect(row(admin, secondAdminEmail)).toHaveCount(0);
  await stale.goto(new URL(fresh).pathname);
  await expect(stale.getByText('This invite link has expired or was already used')).toBeVisible();
  await stale.context().close();
});

test('a removed member is signed out at once and cannot sign in again', async () => {
  await admin.goto('/admin/team');
  await expect(row(admin, DEMO.admin.email).getByRole('button')).toHaveCount(0); // nobody removes themselves
  await row(admin, viewerEmail).getByRole('button', { name: `Remove ${viewerEmail}` }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expectToast(admin, 'Vera Viewer was removed');
  await expect(row(admin, viewerEmail)).toHaveCount(0);

  await viewer.goto('/admin/customers');
  await viewer.waitForURL(/\/login/);
  await viewer.getByLabel('Email').fill(viewerEmail);
  await viewer.getByLabel('Password').fill(PASSWORD);
  await viewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(viewer.getByText('That email and password do not match an account.')).toBeVisible();

  // The audit log holds the team's changes, each under the admin who made it.
  await admin.goto(`/admin/audit?actor=${encodeURIComponent(DEMO.admin.email)}`);
  for (const action of ['member_invited', 'member_invite_resent', 'member_removed']) {
    await expect(admin.locator(`[data-testid="audit-row"][data-action="${action}"]`).first(), action).toBeVisible();
  }
  await expect(admin.locator('[data-testid="audit-row"][data-action="member_removed"]').filter({ hasText: viewerEmail })).toHaveCount(1);
});
