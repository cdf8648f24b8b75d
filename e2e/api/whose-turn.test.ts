import { describe, expect, it } from 'vitest';
import { TransactionDetailRecord, TransactionListRecord } from '@/lib/contracts/records';
import { call, expectError, expectOk, newClient, newDeal, uploadProof, type TestClient } from './support/api';
import { openDispute, returnRejectedDeal, stageMilestone } from './support/staging';

/**
 * Whose turn it is, on the list's items and on GET /v1/transactions/{id} (docs/api.md, "Whose turn"), and what
 * `include` adds to the record: what a dashboard shows of a deal without a read per row or per milestone.
 */

const list = async (client: TestClient, userId: string) =>
  TransactionListRecord.parse(expectOk(await call('GET', `/v1/transactions?user_id=${userId}&limit=20`, { key: client.secretKey }))).transactions;
const detail = async (client: TestClient, id: string, include?: string) =>
  TransactionDetailRecord.parse(expectOk(await call('GET', `/v1/transactions/${id}${include ? `?include=${include}` : ''}`, { key: client.secretKey })));
const actions = (turns: Array<{ action: string }>) => turns.map((t) => t.action);

describe('whose turn it is', () => {
  it('an unfunded milestone is the buyer’s turn, a funded one the seller’s, against its due date', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [30_000, 20_000], { walletFunds: 40_000 });
    const [entry] = await list(client, deal.buyer.id);
    expect(entry!.awaiting.buyer[0]).toEqual({ action: 'fund', due_at: null, milestone_id: deal.milestoneIds[0], dispute_id: null });
    expect(entry!.awaiting.seller).toEqual([]);
    expect(entry!.next_deadline).toBeNull();
    expect(entry!.current_milestone).toEqual({ id: deal.milestoneIds[0], title: 'Milestone 1', status: 'PENDING_FUNDING' });
    expect(entry!.allowed_actions.buyer).toContain('cancel');

    expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    const [funded] = await list(client, deal.seller.id);
    const dueDate = deal.transaction.milestones[0].due_date;
    expect(funded!.awaiting.seller).toEqual([{ action: 'deliver', due_at: dueDate, milestone_id: deal.milestoneIds[0], dispute_id: null }]);
    expect(funded!.next_deadline).toEqual({ due_at: dueDate, owed_by: 'seller', action: 'deliver', milestone_id: deal.milestoneIds[0], dispute_id: null });
    // The record of the transaction says the same as its list item.
    const record = await detail(client, deal.transaction.id);
    expect(record.awaiting).toEqual(funded!.awaiting);
    expect(record.next_deadline).toEqual(funded!.next_deadline);
  });

  it('a delivery is the buyer’s to inspect before its inspection ends', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [30_000], { walletFunds: 40_000 });
    const id = deal.milestoneIds[0]!;
    expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    const delivered = expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [await uploadProof(client)] } }));
    const [entry] = await list(client, deal.buyer.id);
    expect(actions(entry!.awaiting.buyer)).toEqual(expect.arrayContaining(['approve', 'reject']));
    expect(actions(entry!.awaiting.buyer)).not.toContain('propose_partial_acceptance');
    expect(entry!.awaiting.seller).toEqual([]);
    expect(entry!.next_deadline).toMatchObject({ owed_by: 'buyer', milestone_id: id, dispute_id: null, due_at: delivered.inspection_end_date });
  });

  it('in mediation the seller proposes first, then it is the buyer’s turn to answer, in the dispute', async () => {
    const client = await newClient();
    const deal = await returnRejectedDeal(client);
    const id = deal.milestoneId;
    const key = client.secretKey;
    const dispute = await openDispute(client, deal);

    const [opened] = await list(client, deal.buyer.id);
    expect(actions(opened!.awaiting.seller)).toEqual(['add_dispute_amount']);
    expect(opened!.awaiting.buyer).toEqual([]);
    expect(opened!.next_deadline).toEqual({ due_at: dispute.intra_party_mediation_end_date, owed_by: 'seller', action: 'add_dispute_amount', milestone_id: id, dispute_id: dispute.id });

    expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { key, body: { seller_id: deal.seller.id, dispute_amount: 60_000 } }));
    const [proposed] = await list(client, deal.buyer.id);
    expect(proposed!.awaiting.seller).toEqual([]);
    expect(proposed!.awaiting.buyer.length).toBeGreaterThan(0);
    expect(proposed!.awaiting.buyer.every((t) => t.dispute_id === dispute.id && t.due_at === dispute.intra_party_mediation_end_date)).toBe(true);
    expect(proposed!.next_deadline).toMatchObject({ owed_by: 'buyer', dispute_id: dispute.id });
    expect(proposed!.current_milestone).toMatchObject({ id, status: 'IN_DISPUTE' });
  });

  it('a completed deal awaits nobody', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [10_000], { walletFunds: 20_000 });
    const id = deal.milestoneIds[0]!;
    const key = client.secretKey;
    expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key, body: { buyer_id: deal.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key, body: { seller_id: deal.seller.id, proofs_of_completion: [await uploadProof(client)] } }));
    expectOk(await call('POST', `/v1/milestones/${id}/approve`, { key, body: { buyer_id: deal.buyer.id } }));
    const [entry] = await list(client, deal.buyer.id);
    expect(entry!.status).toBe('COMPLETED');
    expect(entry!.awaiting).toEqual({ buyer: [], seller: [] });
    expect(entry!.next_deadline).toBeNull();
    expect(entry!.allowed_actions.buyer).toContain('rate');
  });
});

describe('GET /v1/transactions/{id}?include=', () => {
  it('adds each milestone’s log lines and latest dispute only when asked', async () => {
    const { client, deal, milestoneId: id, disputeId } = await stageMilestone(await newClient(), 'disputed');
    const key = client.secretKey;
    const dispute = expectOk(await call('GET', `/v1/dispute/${disputeId}`, { key }));

    const plain = await detail(client, deal.transaction.id);
    expect(plain.milestones.every((m) => m.milestone_logs === undefined && m.latest_dispute === undefined)).toBe(true);

    const both = await detail(client, deal.transaction.id, 'milestone_logs,disputes');
    const [first, second] = both.milestones;
    const logs = expectOk(await call('GET', `/v1/milestones/${id}`, { key })).milestone_logs;
    expect(first!.milestone_logs).toEqual(logs);
    expect(first!.latest_dispute).toEqual({
      id: dispute.id,
      dispute_code: dispute.dispute_code,
      status: 'INTRA_PARTY_MEDIATION',
      resolution: null,
      dispute_amount: 0,
      verdict_seller_amount: null,
      created_at: dispute.created_at,
    });
    expect(second!.milestone_logs!.map((l) => l.log_message)).toEqual(['Milestone created; waiting for the buyer to fund it.']);
    expect(second!.latest_dispute).toBeNull();

    const logsOnly = await detail(client, deal.transaction.id, 'milestone_logs');
    expect(logsOnly.milestones[0]!.milestone_logs).toEqual(logs);
    expect(logsOnly.milestones[0]!.latest_dispute).toBeUndefined();
    expect(logsOnly.buyer_wallet).toBeUndefined();
  });

  it('adds the buyer’s wallet when asked, as GET /v1/wallets/{user_id} answers it', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [10_000], { walletFunds: 25_000 });
    const withWallet = await detail(client, deal.transaction.id, 'buyer_wallet');
    expect(withWallet.buyer_wallet).toEqual(expectOk(await call('GET', `/v1/wallets/${deal.buyer.id}`, { key: client.secretKey })));
    expect(withWallet.buyer_wallet).toMatchObject({ user_id: deal.buyer.id, balance: 25_000 });
    expect(withWallet.milestones[0]!.milestone_logs).toBeUndefined();
  });

  it('refuses an include it does not know, naming it', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [10_000]);
    for (const include of ['milestones', 'milestone_logs,everything', '', 'disputes,']) {
      const refused = expectError(await call('GET', `/v1/transactions/${deal.transaction.id}?include=${include}`, { key: client.secretKey }), 400, 'VALIDATION_ERROR');
      expect(refused.errors?.map((e) => e.field)).toEqual(['include']);
    }
  });
});
