/**
 * Party ids and user ids (issue #59): records name each party both ways (buyer_id/seller_id are party
 * ids, buyer_user_id/seller_user_id the users' ids), and every path and list filter keyed by a user takes
 * either, answering for the same user; another client's ids stay unknown.
 */
import { describe, expect, it } from 'vitest';
import { call, expectError, expectOk, newClient, newDeal, uploadProof, type TestClient } from './support/api';

const GTBANK = { account_number: '0016563228', bank_code: '058' };

/** A deal whose milestone's return the seller rejected, disputed by the buyer named by party id. */
async function disputedDeal(client: TestClient) {
  const deal = await newDeal(client, [100_000], { walletFunds: 100_000 });
  const key = client.secretKey;
  const milestoneId = deal.milestoneIds[0]!;
  const buyerPartyId: string = deal.transaction.buyer_id;
  const sellerPartyId: string = deal.transaction.seller_id;
  const proof = await uploadProof(client);
  expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key, body: { buyer_id: buyerPartyId } }));
  expectOk(await call('POST', `/v1/milestones/${milestoneId}/deliver`, { key, body: { seller_id: sellerPartyId, proofs_of_completion: [proof] } }));
  expectOk(await call('POST', `/v1/milestones/${milestoneId}/reject`, { key, body: { buyer_id: buyerPartyId, rejection_reason: 'Not as described', proofs_of_return: [proof] } }));
  expectOk(await call('PATCH', `/v1/milestones/${milestoneId}/reject/disapprove`, { key, body: { seller_id: sellerPartyId } }));
  const dispute = expectOk(
    await call('POST', '/v1/dispute/create', { key, body: { description: 'Not as described', buyer_id: buyerPartyId, seller_id: sellerPartyId, milestone_id: milestoneId } }),
  );
  return { ...deal, milestoneId, buyerPartyId, sellerPartyId, disputeId: dispute.id as string };
}

/** The user paths of one user, each answered for `id` (a user id or a party id). */
async function userPaths(client: TestClient, id: string) {
  const key = client.secretKey;
  const [user, wallet, history, statement, csv] = await Promise.all([
    call('GET', `/v1/users/${id}`, { key }),
    call('GET', `/v1/wallets/${id}`, { key }),
    call('GET', `/v1/wallets/${id}/history`, { key }),
    call('GET', `/v1/wallets/${id}/statement`, { key }),
    call('GET', `/v1/wallets/${id}/statement`, { key, headers: { accept: 'text/csv' } }),
  ]);
  return { user, wallet, history, statement, csv };
}

/** The lists a user filters, each filtered by `id`. */
async function userLists(client: TestClient, id: string) {
  const key = client.secretKey;
  const [transactions, payouts, checkouts, bankAccounts] = await Promise.all([
    call('GET', `/v1/transactions?user_id=${id}`, { key }),
    call('GET', `/v1/payouts?user_id=${id}`, { key }),
    call('GET', `/v1/checkouts?user_id=${id}`, { key }),
    call('GET', `/v1/wallets/banks/list?user_id=${id}`, { key }),
  ]);
  return { transactions, payouts, checkouts, bankAccounts };
}

describe('party ids and user ids', () => {
  it('names each party by party id and by user id on transaction, milestone and dispute records, lists and events', async () => {
    const client = await newClient();
    const key = client.secretKey;
    const deal = await disputedDeal(client);
    const byUserIds = { buyer_user_id: deal.buyer.id, seller_user_id: deal.seller.id };
    const byPartyIds = { buyer_id: deal.buyerPartyId, seller_id: deal.sellerPartyId };
    expect(deal.buyerPartyId).not.toBe(deal.buyer.id);
    expect(deal.transaction).toMatchObject({ ...byPartyIds, ...byUserIds });

    const transaction = expectOk(await call('GET', `/v1/transactions/${deal.transaction.id}`, { key }));
    expect(transaction).toMatchObject({ ...byPartyIds, ...byUserIds, buyer: { id: deal.buyerPartyId, user_id: deal.buyer.id } });
    const listed = expectOk(await call('GET', '/v1/transactions?page=1&limit=10', { key })).transactions;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: deal.transaction.id, ...byPartyIds, ...byUserIds });

    const milestone = expectOk(await call('GET', `/v1/milestones/${deal.milestoneId}`, { key }));
    expect(milestone.transaction).toMatchObject({ ...byPartyIds, ...byUserIds });

    const dispute = expectOk(await call('GET', `/v1/dispute/${deal.disputeId}`, { key }));
    expect(dispute).toMatchObject({ ...byPartyIds, ...byUserIds });
    expect(dispute.milestone.transaction).toMatchObject({ ...byPartyIds, ...byUserIds });
    const disputes = expectOk(await call('GET', '/v1/dispute?page=1&limit=10', { key })).disputes;
    expect(disputes).toHaveLength(1);
    expect(disputes[0]).toMatchObject({ id: deal.disputeId, ...byPartyIds, ...byUserIds });

    // Webhook payloads carry the same records.
    const created = expectOk(await call('GET', `/v1/events?type=transaction.created&transaction_id=${deal.transaction.id}`, { key })).events;
    expect(created).toHaveLength(1);
    expect(created[0].data.transaction).toMatchObject({ ...byPartyIds, ...byUserIds });
    const opened = expectOk(await call('GET', `/v1/events?type=dispute.created&transaction_id=${deal.transaction.id}`, { key })).events;
    expect(opened).toHaveLength(1);
    expect(opened[0].data.dispute).toMatchObject({ ...byPartyIds, ...byUserIds });
  });

  it('answers every user path and user filter for a party id as for the user id', async () => {
    const client = await newClient();
    const key = client.secretKey;
    const deal = await disputedDeal(client);
    const buyerId: string = deal.buyer.id;
    // Bodies naming a user take the party id too, and their records name the user by its user id.
    const funded = expectOk(await call('POST', '/v1/wallets/fund', { key, body: { user_id: deal.buyerPartyId, amount: 2_000 } }));
    expect(funded.user_id).toBe(buyerId);
    const account = expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key, body: { user_id: deal.buyerPartyId, ...GTBANK } }));
    const payout = expectOk(await call('POST', '/v1/payouts', { key, body: { user_id: deal.buyerPartyId, amount: 500, bank_account_id: account.id } }));
    expect(payout.user_id).toBe(buyerId);
    const checkout = expectOk(await call('POST', '/v1/checkouts', { key, body: { buyer_id: deal.buyerPartyId, amount: 1_000 } }));
    expect(checkout.user_id).toBe(buyerId);

    const byUser = await userPaths(client, buyerId);
    const byParty = await userPaths(client, deal.buyerPartyId);
    expect(expectOk(byUser.user).id).toBe(buyerId);
    expect(byParty.user.body).toEqual(byUser.user.body);
    expect(expectOk(byUser.wallet)).toMatchObject({ user_id: buyerId, balance: 1_500 });
    expect(byParty.wallet.body).toEqual(byUser.wallet.body);
    expect(expectOk(byUser.history).entries.length).toBeGreaterThan(2);
    expect(byParty.history.body).toEqual(byUser.history.body);
    expect(expectOk(byUser.statement).user_id).toBe(buyerId);
    expect(byParty.statement.body).toEqual(byUser.statement.body);
    expect(byUser.csv.status).toBe(200);
    expect(byParty.csv.status).toBe(200);
    expect(byParty.csv.body).toBe(byUser.csv.body);
    expect(byParty.csv.headers.get('content-disposition')).toBe(byUser.csv.headers.get('content-disposition'));

    const listsByUser = await userLists(client, buyerId);
    const listsByParty = await userLists(client, deal.buyerPartyId);
    expect(expectOk(listsByUser.transactions).transactions.map((t: { id: string }) => t.id)).toEqual([deal.transaction.id]);
    expect(expectOk(listsByUser.payouts).payouts.map((p: { id: string }) => p.id)).toEqual([payout.id]);
    expect(expectOk(listsByUser.checkouts).checkouts.map((c: { id: string }) => c.id)).toEqual([checkout.id]);
    expect(expectOk(listsByUser.bankAccounts).bank_accounts.map((a: { id: string }) => a.id)).toEqual([account.id]);
    for (const list of ['transactions', 'payouts', 'checkouts', 'bankAccounts'] as const) {
      expect(listsByParty[list].body, list).toEqual(listsByUser[list].body);
    }

    // The seller's party id names the seller, not the buyer.
    expect(expectOk(await call('GET', `/v1/users/${deal.sellerPartyId}`, { key })).id).toBe(deal.seller.id);
    expect(expectOk(await call('GET', `/v1/wallets/${deal.sellerPartyId}`, { key })).user_id).toBe(deal.seller.id);

    // PATCH by party id changes that user, and answers it by its user id.
    const patched = expectOk(await call('PATCH', `/v1/users/${deal.sellerPartyId}`, { key, body: { phone: '+2348039876543' } }));
    expect(patched).toMatchObject({ id: deal.seller.id, phone: '+2348039876543' });
    expect(expectOk(await call('GET', `/v1/users/${deal.seller.id}`, { key })).phone).toBe('+2348039876543');
  });

  it("answers 404 for another client's party id and user id on every user path, changing nothing, and its lists find nothing", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const deal = await disputedDeal(owner);
    const before = expectOk(await call('GET', `/v1/users/${deal.buyer.id}`, { key: owner.secretKey }));
    const unknown = '0b6f5d0e-8c1a-4c55-9f3e-2b8f5b6c7d8e';

    for (const id of [deal.buyerPartyId, deal.buyer.id, unknown]) {
      const paths = await userPaths(stranger, id);
      for (const [name, res] of Object.entries(paths)) {
        const error = expectError(res, 404, 'NOT_FOUND');
        expect(error.message, name).toContain(id);
      }
      expectError(await call('PATCH', `/v1/users/${id}`, { key: stranger.secretKey, body: { phone: '+2348030000000' } }), 404, 'NOT_FOUND');
      expectError(await call('POST', '/v1/wallets/fund', { key: stranger.secretKey, body: { user_id: id, amount: 1_000 } }), 404, 'NOT_FOUND');

      // Lists filter rather than look up: the transactions list names the unknown user (404), the others are empty.
      const lists = await userLists(stranger, id);
      expectError(lists.transactions, 404, 'NOT_FOUND');
      expect(expectOk(lists.payouts).payouts).toEqual([]);
      expect(expectOk(lists.checkouts).checkouts).toEqual([]);
      expect(expectOk(lists.bankAccounts).bank_accounts).toEqual([]);
    }

    expect(expectOk(await call('GET', `/v1/users/${deal.buyer.id}`, { key: owner.secretKey }))).toEqual(before);
    expect(expectOk(await call('GET', `/v1/wallets/${deal.buyerPartyId}`, { key: owner.secretKey })).balance).toBe(0);
  });
});
