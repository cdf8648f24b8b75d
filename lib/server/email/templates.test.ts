import { describe, expect, it } from 'vitest';
import { amountProposedEmail, deadlineReminderEmail, deliveryAwaitsInspectionEmail, disputeResolvedEmail, escapeHtml, invitationEmail, payoutEmail } from './templates';

const LINK = 'https://desk.example.com/disputes/0193a5c0-0000-7000-8000-000000000001';

describe('email templates', () => {
  it("the seller's proposal: the amount in naira in the subject and both bodies, the link in both", () => {
    const email = amountProposedEmail({ amountKobo: 4_250_050, milestoneTitle: 'Logo design', disputeCode: 'DSP-ABC123', mediationEndsAt: new Date('2026-03-02T16:30:00Z'), link: LINK });
    expect(email.subject).toBe('The seller proposed ₦42,500.50 for “Logo design”');
    expect(email.text).toContain('₦42,500.50');
    expect(email.text).toContain('DSP-ABC123');
    expect(email.text).toContain(`Answer the proposal: ${LINK}`);
    expect(email.html).toContain('₦42,500.50');
    expect(email.html).toContain(`<a href="${LINK}">Answer the proposal</a>`);
    // 16:30 UTC is 17:30 in Lagos (WAT, UTC+1, no daylight saving).
    expect(email.text).toContain('Mediation ends: 2 Mar 2026, 17:30 WAT');
  });

  it('a delivery to inspect carries its deadline in WAT and the amount held', () => {
    const email = deliveryAwaitsInspectionEmail({
      milestoneTitle: 'Homepage',
      transactionTitle: 'Website',
      amountKobo: 10_000_000,
      inspectionEndsAt: new Date('2026-01-31T23:15:00Z'),
      link: 'https://desk.example.com/transactions/t1',
    });
    expect(email.subject).toBe('A delivery awaits your inspection: “Homepage”');
    expect(email.text).toContain('Inspect by: 1 Feb 2026, 00:15 WAT');
    expect(email.text).toContain('Amount held: ₦100,000.00');
    expect(email.text).toContain('https://desk.example.com/transactions/t1');
  });

  it('without a dashboard account there is no link, and the email says where to act instead', () => {
    const email = deliveryAwaitsInspectionEmail({ milestoneTitle: 'Homepage', transactionTitle: 'Website', amountKobo: 100, inspectionEndsAt: new Date('2026-01-01T00:00:00Z'), link: null });
    expect(email.text).not.toMatch(/https?:\/\//);
    expect(email.html).not.toContain('<a ');
    expect(email.text).toContain('on the marketplace');
  });

  it("escapes a hostile milestone title in the HTML and keeps it as written in the text", () => {
    const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
    const email = deliveryAwaitsInspectionEmail({ milestoneTitle: hostile, transactionTitle: "O'Neil & Sons", amountKobo: 100, inspectionEndsAt: new Date('2026-01-01T00:00:00Z'), link: LINK });
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<img');
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('O&#39;Neil &amp; Sons');
    expect(email.text).toContain(hostile);
  });

  it('escapes a link with quotes so it cannot leave its attribute', () => {
    const email = payoutEmail({ outcome: 'paid', amountKobo: 500_00, bankLine: 'GTBank ••••3228', reason: null, link: 'https://x.example/"><b>' });
    expect(email.html).toContain('href="https://x.example/&quot;&gt;&lt;b&gt;"');
  });

  it('payouts: paid and failed with the reason and the money back in the wallet', () => {
    expect(payoutEmail({ outcome: 'paid', amountKobo: 990_000, bankLine: 'GTBank ••••3228', reason: null, link: null }).subject).toBe('Payout of ₦9,900.00 paid');
    const failed = payoutEmail({ outcome: 'failed', amountKobo: 990_000, bankLine: 'GTBank ••••3228', reason: 'Account closed', link: null });
    expect(failed.subject).toBe('Payout of ₦9,900.00 failed');
    expect(failed.text).toContain('failed: Account closed');
    expect(failed.text).toContain('back in your wallet');
  });

  it('a reminder names the move, the deadline in WAT and what its lapse does', () => {
    const email = deadlineReminderEmail({ name: 'Ada Obi', deadline: 'inspection', subjectTitle: 'Homepage', dueAt: new Date('2026-05-04T09:00:00Z'), link: LINK });
    expect(email.subject).toBe('Reminder: inspect the delivery of “Homepage” by 4 May 2026, 10:00 WAT');
    expect(email.text.startsWith('Hello Ada Obi,')).toBe(true);
    expect(email.text).toContain('the delivery is accepted and the seller is paid');
  });

  it('the dispute outcome and the invitation', () => {
    const outcome = disputeResolvedEmail({ disputeCode: 'DSP-1', milestoneTitle: 'Logo', outcome: 'Buyer approved ₦400.00; dispute resolved.', link: null });
    expect(outcome.subject).toBe('Dispute DSP-1 is resolved');
    expect(outcome.text).toContain('Buyer approved ₦400.00');
    const invite = invitationEmail({ name: 'Ada', inviteUrl: 'https://desk.example.com/invite/tok', expiresAt: new Date('2026-01-08T12:00:00Z') });
    expect(invite.text).toContain('Set your password: https://desk.example.com/invite/tok');
    expect(invite.text).toContain('8 Jan 2026, 13:00 WAT');
  });

  it('escapeHtml escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
