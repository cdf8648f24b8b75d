/**
 * Extensions (docs/decisions.md §13), over HTTP: the seller's request to move an undelivered milestone's due date
 * and the buyer's answer (or the service's, when the buyer stays silent), and either party's one extension
 * of a dispute's evidence window. After each: the records, the deadlines, the logs and the events; after
 * each refusal, nothing changed; no money moves, so the ledger stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { DisputeWithPartiesRecord, MilestoneRecord, MilestoneWithLogsRecord, TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import { call, expectError, expectLedgerBalanced, expectOk, inDays, newClient, newDeal, snapshot, uploadProof, walletBalance, type TestClient } from './support/api';
import { stageMilestone } from './support/staging';

type Deal = Awaited<ReturnType<typeof newDeal>>;

const send = (client: TestClient, method: 'POST' | 'PATCH', path: string, body: Record<string, unknown>) => call(method, path, { key: client.secretKey, body });

async function milestone(client: TestClient, id: string) {
  return MilestoneWithLogsRecord.parse(expectOk(await call('GET', `/v1/milestones/${id}`, { key: client.secretKey })));
}

async function eventsOf(client: TestClient, transactionId: string) {
  const data = expectOk(await call('GET', `/v1/events?transaction_id=${transactionId}&limit=100`, { key: client.secretKey }));
  return data.events as Array<{ type: string; data: { actor: string; automatic: boolean } }>;
}

async function expectRefused(client: TestClient, deal: Deal, method: 'POST' | 'PATCH', path: string, body: Record<string, unknown>, status: number, code: string, message?: RegExp) {
  const before = await snapshot(client, deal);
  expectError(await send(client, method, path, body), status, code, message);
  expect(await snapshot(client, deal)).toBe(before);
}

const ask = (client: TestClient, deal: Deal, dueDate: string, reason = 'The supplier shipped late', i = 0) =>
  send(client, 'POST', `/v1/milestones/${deal.milestoneIds[i]}/extensions`, { seller_id: deal.seller.id, due_date: dueDate, reason });
const answer = (client: TestClient, deal: Deal, how: 'approve' | 'decline', body: Record<string, unknown> = {}, i = 0) =>
  send(client, 'PATCH', `/v1/milestones/${deal.milestoneIds[i]}/extensions/${how}`, { buyer_id: deal.buyer.id, ...body });

describe('a due-date extension', () => {
  it('the seller asks, the buyer approves: the due date moves, the extension is counted, and the deadline goes', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 2000], { walletFunds: 5000 });
    expectOk(await send(client, 'POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { buyer_id: deal.buyer.id }));
    const before = await milestone(client, deal.milestoneIds[0]!);
    expect(before).toMatchObject({ extensions: [], current_extension_index: null, deadlines: [] });
    expect(before.allowed_actions.seller).toContain('request_extension');
    const buyerWallet = await walletBalance(client, deal.buyer.id);

    const newDue = inDays(25);
    const asked = MilestoneRecord.parse(expectOk(await ask(client, deal, newDue)));
    expect(asked.extensions).toEqual([{ due_date: new Date(newDue).toISOString(), reason: 'The supplier shipped late', status: 'PENDING', requested_at: expect.any(String), answered_at: null }]);
    expect(asked.due_date).toBe(before.due_date);
    expect(asked.allowed_actions).toEqual({ buyer: ['approve_extension', 'decline_extension'], seller: ['deliver', 'refund'] });
    expect(asked.deadlines).toEqual([expect.objectContaining({ name: 'extension_response', counted_in: 'business_days', on_lapse: 'extension_declined' })]);
    const dueAt = new Date(asked.deadlines[0]!.due_at).getTime();
    expect(dueAt - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(dueAt - Date.now()).toBeLessThan(6 * 86_400_000);

    // One request at a time; only the buyer answers; only the seller asks.
    await expectRefused(client, deal, 'POST', `/v1/milestones/${deal.milestoneIds[0]}/extensions`, { seller_id: deal.seller.id, due_date: inDays(30), reason: 'More' }, 409, 'INVALID_STATE', /already waiting/);
    await expectRefused(client, deal, 'PATCH', `/v1/milestones/${deal.milestoneIds[0]}/extensions/approve`, { buyer_id: deal.seller.id }, 403, 'WRONG_PARTY');
    await expectRefused(client, deal, 'POST', `/v1/milestones/${deal.milestoneIds[0]}/extensions`, { seller_id: deal.buyer.id, due_date: inDays(30), reason: 'Me' }, 403, 'WRONG_PARTY');

    const approved = MilestoneRecord.parse(expectOk(await answer(client, deal, 'approve')));
    expect(approved).toMatchObject({ due_date: new Date(newDue).toISOString(), current_extension_index: 0, deadlines: [] });
    expect(approved.extensions).toEqual([expect.objectContaining({ status: 'APPROVED', answered_at: expect.any(String) })]);
    expect(approved.allowed_actions).toEqual({ buyer: [], seller: ['deliver', 'request_extension', 'refund'] });
    await expectRefused(client, deal, 'PATCH', `/v1/milestones/${deal.milestoneIds[0]}/extensions/decline`, { buyer_id: deal.buyer.id }, 409, 'INVALID_STATE', /no extension request/);

    const logs = (await milestone(client, deal.milestoneIds[0]!)).milestone_logs.map((l) => [l.actor, l.log_message]);
    expect(logs.slice(-2)).toEqual([
      ['seller', expect.stringMatching(/^Seller asked to move the due date .*: The supplier shipped late\. The buyer has until .* to answer/)],
      ['buyer', expect.stringMatching(/^Buyer approved the extension: the milestone is now due/)],
    ]);
    expect((await eventsOf(client, deal.transaction.id)).map((e) => e.type).slice(-2)).toEqual(['milestone.extension_requested', 'milestone.extension_approved']);
    expect(await walletBalance(client, deal.buyer.id)).toBe(buyerWallet);
    await expectLedgerBalanced();
  });

  it('declined with a reason, the due date stands; the next approved one is counted by its own index', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000]);
    const original = (await milestone(client, deal.milestoneIds[0]!)).due_date;
    expectOk(await ask(client, deal, inDays(20)));
    const declined = MilestoneRecord.parse(expectOk(await answer(client, deal, 'decline', { reason: 'The launch is fixed' })));
    expect(declined).toMatchObject({ due_date: original, current_extension_index: null, deadlines: [] });
    expect(declined.extensions.map((e) => e.status)).toEqual(['DECLINED']);
    expect((await milestone(client, deal.milestoneIds[0]!)).milestone_logs.at(-1)?.log_message).toMatch(/^Buyer declined the extension: The launch is fixed\./);

    expectOk(await ask(client, deal, inDays(15), 'A shorter delay'));
    const approved = MilestoneRecord.parse(expectOk(await answer(client, deal, 'approve')));
    expect(approved.extensions.map((e) => e.status)).toEqual(['DECLINED', 'APPROVED']);
    expect(approved.current_extension_index).toBe(1);
    expect((await eventsOf(client, deal.transaction.id)).map((e) => e.type)).toEqual([
      'transaction.created',
      'milestone.extension_requested',
      'milestone.extension_declined',
      'milestone.extension_requested',
      'milestone.extension_approved',
    ]);
  });

  it('refuses a date not later than the current one or in the past (400), bad bodies, unknown milestones, and requests after delivery', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    const path = `/v1/milestones/${deal.milestoneIds[0]}/extensions`;
    const current = (await milestone(client, deal.milestoneIds[0]!)).due_date;
    await expectRefused(client, deal, 'POST', path, { seller_id: deal.seller.id, due_date: current, reason: 'Same day' }, 400, 'VALIDATION_ERROR', /later than the current one/);
    await expectRefused(client, deal, 'POST', path, { seller_id: deal.seller.id, due_date: inDays(-1), reason: 'Past' }, 400, 'VALIDATION_ERROR', /in the future/);
    await expectRefused(client, deal, 'POST', path, { seller_id: deal.seller.id, due_date: 'next week', reason: 'Vague' }, 400, 'VALIDATION_ERROR', /due_date/);
    await expectRefused(client, deal, 'POST', path, { seller_id: deal.seller.id, due_date: inDays(20) }, 400, 'VALIDATION_ERROR', /reason/);
    expectError(await send(client, 'POST', '/v1/milestones/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/extensions', { seller_id: deal.seller.id, due_date: inDays(20), reason: 'x' }), 404, 'NOT_FOUND');

    expectOk(await send(client, 'POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { buyer_id: deal.buyer.id }));
    expectOk(await ask(client, deal, inDays(20)));
    expectOk(await send(client, 'POST', `/v1/milestones/${deal.milestoneIds[0]}/deliver`, { seller_id: deal.seller.id, proofs_of_completion: [await uploadProof(client)] }));
    // Delivered meanwhile: the due date no longer matters, so the request can only be declined.
    const delivered = await milestone(client, deal.milestoneIds[0]!);
    expect(delivered.allowed_actions.buyer).toEqual(['approve', 'reject', 'decline_extension', 'propose_partial_acceptance']);
    await expectRefused(client, deal, 'PATCH', `/v1/milestones/${deal.milestoneIds[0]}/extensions/approve`, { buyer_id: deal.buyer.id }, 409, 'INVALID_STATE', /delivered meanwhile/);
    expectOk(await answer(client, deal, 'decline'));
    await expectRefused(client, deal, 'POST', path, { seller_id: deal.seller.id, due_date: inDays(30), reason: 'Late' }, 409, 'INVALID_STATE', /only before delivery/);
    await expectLedgerBalanced();
  });

  it('a request the buyer leaves unanswered for 3 business days is declined by the service', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000]);
    const original = (await milestone(client, deal.milestoneIds[0]!)).due_date;
    expectOk(await ask(client, deal, inDays(30)));
    expectOk(await send(client, 'POST', '/v1/test-clock/advance', { days: 1 }));
    expect((await milestone(client, deal.milestoneIds[0]!)).extensions[0]!.status).toBe('PENDING');
    expectOk(await send(client, 'POST', '/v1/test-clock/advance', { days: 6 }));
    const m = await milestone(client, deal.milestoneIds[0]!);
    expect(m).toMatchObject({ due_date: original, current_extension_index: null, deadlines: [] });
    expect(m.extensions).toEqual([expect.objectContaining({ status: 'DECLINED', answered_at: expect.any(String) })]);
    expect(m.milestone_logs.at(-1)).toMatchObject({ actor: 'system', is_automatic: true, log_message: expect.stringMatching(/declined automatically: the buyer did not answer it in time/) });
    const last = (await eventsOf(client, deal.transaction.id)).at(-1)!;
    expect(last).toMatchObject({ type: 'milestone.extension_declined', data: { actor: 'system', automatic: true } });
    expect(m.allowed_actions.seller).toContain('request_extension');
  });

  it('a transaction canceled with a request pending answers it: declined, its deadline gone', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 2000]);
    expectOk(await ask(client, deal, inDays(30)));
    const t = TransactionWithMilestonesRecord.parse(expectOk(await send(client, 'POST', `/v1/transactions/${deal.transaction.id}/cancel`, { buyer_id: deal.buyer.id, reason: 'Plans changed' })));
    expect(t.status).toBe('CANCELED');
    expect(t.milestones[0]).toMatchObject({ status: 'CANCELED', deadlines: [], allowed_actions: { buyer: [], seller: [] } });
    expect(t.milestones[0]!.extensions.map((e) => e.status)).toEqual(['DECLINED']);
    expect((await eventsOf(client, deal.transaction.id)).map((e) => e.type).slice(-2)).toEqual(['milestone.extension_declined', 'transaction.canceled']);
    // Days later nothing else happens to it.
    expectOk(await send(client, 'POST', '/v1/test-clock/advance', { days: 10 }));
    expect((await eventsOf(client, deal.transaction.id)).at(-1)?.type).toBe('transaction.canceled');
  });

  it('answers racing each other, 20 at once: exactly one lands, the rest are 409', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000]);
    expectOk(await ask(client, deal, inDays(30)));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => answer(client, deal, i % 2 === 0 ? 'approve' : 'decline')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'INVALID_STATE');
    const m = await milestone(client, deal.milestoneIds[0]!);
    expect(m.extensions).toHaveLength(1);
    expect(m.milestone_logs.filter((l) => /^Buyer (approved|declined) the extension/.test(l.log_message))).toHaveLength(1);
  });
});

describe('an evidence-window extension', () => {
  it('each party extends once by 2 business days; a second time, or outside evidence submission, is 409', async () => {
    const client = await newClient();
    const s = await stageMilestone(client, 'escalated');
    const path = `/v1/dispute/${s.disputeId}/evidence/extension`;
    const get = async () => DisputeWithPartiesRecord.parse(expectOk(await call('GET', `/v1/dispute/${s.disputeId}`, { key: client.secretKey })));
    const before = await get();
    expect(before.evidence_extended_by).toEqual([]);
    expect(before.allowed_actions.buyer).toContain('extend_evidence');

    const byBuyer = DisputeWithPartiesRecord.parse(expectOk(await send(client, 'POST', path, { buyer_id: s.deal.buyer.id, reason: 'The courier report comes on Monday' })));
    const grown = new Date(byBuyer.evidence_submission_end_date!).getTime() - new Date(before.evidence_submission_end_date!).getTime();
    // Two business days: 48 hours, or more across a weekend or holiday.
    expect(grown).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(grown).toBeLessThanOrEqual(6 * 86_400_000);
    expect(byBuyer).toMatchObject({ status: 'EVIDENCE_SUBMISSION', evidence_extended_by: ['buyer'] });
    expect(byBuyer.deadlines).toEqual([expect.objectContaining({ name: 'evidence_submission', due_at: byBuyer.evidence_submission_end_date })]);
    expect(byBuyer.allowed_actions.buyer).not.toContain('extend_evidence');
    expect(byBuyer.allowed_actions.seller).toContain('extend_evidence');

    await expectRefused(client, s.deal, 'POST', path, { buyer_id: s.deal.buyer.id, reason: 'Again' }, 409, 'INVALID_STATE', /already extended the evidence window once/);
    await expectRefused(client, s.deal, 'POST', path, { buyer_id: s.deal.seller.id, reason: 'Posing as the buyer' }, 403, 'WRONG_PARTY');
    await expectRefused(client, s.deal, 'POST', path, { seller_id: s.deal.seller.id }, 400, 'VALIDATION_ERROR', /reason/);
    expectError(await send(client, 'POST', '/v1/dispute/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/evidence/extension', { buyer_id: s.deal.buyer.id, reason: 'x' }), 404, 'NOT_FOUND');

    const bySeller = DisputeWithPartiesRecord.parse(expectOk(await send(client, 'POST', path, { seller_id: s.deal.seller.id, reason: 'Our witness is travelling' })));
    expect(bySeller.evidence_extended_by).toEqual(['buyer', 'seller']);
    expect(new Date(bySeller.evidence_submission_end_date!).getTime()).toBeGreaterThan(new Date(byBuyer.evidence_submission_end_date!).getTime());
    const events = await eventsOf(client, s.deal.transaction.id);
    expect(events.filter((e) => e.type === 'dispute.evidence_extended').map((e) => e.data.actor)).toEqual(['buyer', 'seller']);
    const logs = (await milestone(client, s.milestoneId)).milestone_logs.map((l) => l.log_message);
    expect(logs).toEqual(expect.arrayContaining([expect.stringMatching(/^The buyer extended the evidence window \(The courier report comes on Monday\); evidence submission is now open until/)]));

    const mediation = await stageMilestone(client, 'disputed');
    await expectRefused(client, mediation.deal, 'POST', `/v1/dispute/${mediation.disputeId}/evidence/extension`, { buyer_id: mediation.deal.buyer.id, reason: 'Early' }, 409, 'INVALID_STATE', /only during evidence submission/);
    await expectLedgerBalanced();
  });
});
