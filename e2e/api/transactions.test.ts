import { describe, expect, it } from 'vitest';
import { TransactionListRecord, TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import { call, expectError, expectOk, inDays, newClient, newDeal, newUser, uploadProof } from './support/api';

describe('creating a transaction', () => {
  it('creates its milestones in order, each with an empty escrow and its fee, pending funding', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const seller = await newUser(client, 'Seller');
    const created = TransactionWithMilestonesRecord.parse(
      expectOk(
        await call('POST', '/v1/transactions', {
          key: client.secretKey,
          body: {
            title: 'Generator supply',
            description: '2 generators',
            buyer_id: buyer.id,
            seller_id: seller.id,
            milestones: [
              { title: 'First', description: 'One', amount: 250_000.5, due_date: inDays(7), inspection_duration: 5 },
              { title: 'Second', description: 'Two', amount: 3_000_000, due_date: inDays(14) },
            ],
          },
        }),
      ),
    );
    expect(created).toMatchObject({
      status: 'MILESTONE_PENDING_FUNDING',
      currency: 'NGN',
      location_type: 'LOCAL',
      category: 'GOODS',
      sub_category: 'Food/beverage/agriculture',
      transaction_originator: 'BUYER',
      source: 'api',
      clientId: client.id,
      created_by: client.id,
      transaction_amount: 3_250_000.5,
      total_amount_funded: 0,
      is_completed: false,
      on_last_milestone: false,
      commission_payer: 'SELLER_100',
    });
    expect(created.buyer.user.id).toBe(buyer.id);
    expect(created.buyer_id).toBe(created.buyer.id);
    expect(created.transaction_contract_url).toMatch(new RegExp(`/v1/transactions/${created.id}$`));
    const [first, second] = created.milestones;
    expect(created.current_milestone_id).toBe(first!.id);
    expect(first).toMatchObject({ position_in_transaction: 1, amount: 250_000.5, milestone_fee: 2_500.01, inspection_duration: 5, status: 'PENDING_FUNDING', milestone_escrow: { balance: 0 }, rate_used: 1 });
    // 1% of ₦3,000,000 is ₦30,000, above the ₦20,000 cap.
    expect(second).toMatchObject({ position_in_transaction: 2, milestone_fee: 20_000, inspection_duration: 3 });
    expect(first!.allowed_actions).toEqual({ buyer: ['fund'], seller: ['request_extension'] });
    expect(second!.allowed_actions).toEqual({ buyer: [], seller: ['request_extension'] });
    // The record as created, and whose turn it is (the buyer's, to fund the first milestone).
    const { awaiting, next_deadline, ...read } = expectOk(await call('GET', `/v1/transactions/${created.id}`, { key: client.secretKey }));
    expect(read).toEqual(created);
    expect(awaiting).toEqual({ buyer: [{ action: 'fund', due_at: null, milestone_id: first!.id, dispute_id: null }], seller: [] });
    expect(next_deadline).toBeNull();
  });

  it('refuses bad parties and bad milestones, creating nothing', async () => {
    const client = await newClient();
    const other = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const seller = await newUser(client, 'Seller');
    const foreign = await newUser(other, 'Foreign');
    const milestone = { title: 'M', description: 'D', amount: 100, due_date: inDays(3) };
    const body = { title: 'T', description: 'D', buyer_id: buyer.id, seller_id: seller.id, milestones: [milestone] };
    const post = (b: unknown) => call('POST', '/v1/transactions', { key: client.secretKey, body: b });
    expectError(await post({ ...body, seller_id: buyer.id }), 400, 'VALIDATION_ERROR', /different/);
    expectError(await post({ ...body, seller_id: foreign.id }), 404, 'NOT_FOUND');
    expectError(await post({ ...body, milestones: [] }), 400, 'VALIDATION_ERROR');
    for (const amount of [0, -5, 0.001, 1e13, '100']) {
      const res = expectError(await post({ ...body, milestones: [{ ...milestone, amount }] }), 400, 'VALIDATION_ERROR');
      expect(res.errors?.[0]?.field).toBe('milestones.0.amount');
    }
    expectError(await post({ ...body, milestones: [{ ...milestone, due_date: 'tomorrow' }] }), 400, 'VALIDATION_ERROR');
    expectError(await post({ ...body, commission_payer: 'NOBODY' }), 400, 'VALIDATION_ERROR');
    expectError(await post({ ...body, title: 'x'.repeat(201) }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', '/v1/transactions', { key: client.secretKey })).pagination.total).toBe(0);
  });
});

describe('a milestone due date in the past', () => {
  it('is refused with 400 naming each such milestone, and nothing is created', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const seller = await newUser(client, 'Seller');
    const post = (dueDates: string[]) =>
      call('POST', '/v1/transactions', {
        key: client.secretKey,
        body: {
          title: 'Late from the start',
          description: 'Due yesterday',
          buyer_id: buyer.id,
          seller_id: seller.id,
          milestones: dueDates.map((due_date, i) => ({ title: `M${i + 1}`, description: 'Work', amount: 1_000, due_date })),
        },
      });
    const res = expectError(await post([inDays(5), inDays(-1), new Date().toISOString()]), 400, 'VALIDATION_ERROR', /milestones\.1\.due_date must be later than now/);
    expect(res.errors?.map((e) => e.field)).toEqual(['milestones.1.due_date', 'milestones.2.due_date']);
    expect(res.errors?.[0]?.message).toMatch(/^must be later than now \(\d{4}-\d{2}-\d{2}T/);
    expect(expectOk(await call('GET', '/v1/transactions', { key: client.secretKey })).pagination.total).toBe(0);
    expectOk(await post([inDays(1)]));
  });

  it("is measured by a test key's test clock: a date still ahead of the wall clock is past once the clock moved beyond it", async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const seller = await newUser(client, 'Seller');
    expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { days: 5 } }));
    const body = (due_date: string) => ({ title: 'T', description: 'D', buyer_id: buyer.id, seller_id: seller.id, milestones: [{ title: 'M', description: 'W', amount: 500, due_date }] });
    const res = expectError(await call('POST', '/v1/transactions', { key: client.secretKey, body: body(inDays(3)) }), 400, 'VALIDATION_ERROR');
    expect(res.errors).toEqual([{ field: 'milestones.0.due_date', message: expect.stringMatching(/^must be later than now/) }]);
    expect(expectOk(await call('GET', '/v1/transactions', { key: client.secretKey })).pagination.total).toBe(0);
    expectOk(await call('POST', '/v1/transactions', { key: client.secretKey, body: body(inDays(6)) }));
  });

  it('is refused for an extension request too, on due_date', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1_000]);
    const res = expectError(
      await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/extensions`, { key: client.secretKey, body: { seller_id: deal.seller.id, due_date: inDays(-2), reason: 'Late' } }),
      400,
      'VALIDATION_ERROR',
      /due_date/,
    );
    expect(res.errors).toEqual([{ field: 'due_date', message: 'The new due date must be in the future.' }]);
  });
});

describe('transaction status follows its current milestone', () => {
  it('moves to the next milestone when one finishes and completes with the last', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1_000, 2_000], { walletFunds: 3_000 });
    const [m1, m2] = deal.milestoneIds;
    const key = client.secretKey;
    const proof = await uploadProof(client);
    const status = async () => expectOk(await call('GET', `/v1/transactions/${deal.transaction.id}`, { key }));
    for (const id of [m1, m2]) expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key, body: { buyer_id: deal.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${m1}/deliver`, { key, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
    expect(await status()).toMatchObject({ status: 'MILESTONE_UNDER_INSPECTION', current_milestone_id: m1, on_last_milestone: false });
    expectOk(await call('POST', `/v1/milestones/${m1}/approve`, { key, body: { buyer_id: deal.buyer.id } }));
    expect(await status()).toMatchObject({ status: 'MILESTONE_IN_PROGRESS', current_milestone_id: m2, on_last_milestone: true, total_amount_funded: 3_000 });
    expectOk(await call('POST', `/v1/milestones/${m2}/deliver`, { key, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
    expectOk(await call('POST', `/v1/milestones/${m2}/approve`, { key, body: { buyer_id: deal.buyer.id } }));
    const done = await status();
    expect(done).toMatchObject({ status: 'COMPLETED', is_completed: true, total_amount_disbursed: 2_970 });
    expect(done.approved_at).not.toBeNull();
  });
});

describe('listing transactions', () => {
  it('filters by user and status and paginates, showing only this client', async () => {
    const client = await newClient();
    const a = await newDeal(client, [100]);
    await newDeal(client, [200]);
    await newDeal(client, [300]);
    const key = client.secretKey;
    const page = TransactionListRecord.parse(expectOk(await call('GET', '/v1/transactions?page=1&limit=2', { key })));
    expect(page.transactions).toHaveLength(2);
    expect(page.pagination).toMatchObject({ total: 3, pageCount: 2, hasNextPage: true, nextPage: 2 });
    expect(page.transactions[0]!.buyer.user).toBeDefined();
    const byUser = expectOk(await call('GET', `/v1/transactions?user_id=${a.seller.id}`, { key }));
    expect(byUser.transactions.map((t: { id: string }) => t.id)).toEqual([a.transaction.id]);
    const byStatus = expectOk(await call('GET', '/v1/transactions?status=COMPLETED', { key }));
    expect(byStatus.transactions).toEqual([]);
    expectError(await call('GET', '/v1/transactions?limit=1000', { key }), 400, 'VALIDATION_ERROR');
    const other = await newClient();
    expect(expectOk(await call('GET', '/v1/transactions', { key: other.secretKey })).pagination.total).toBe(0);
    expectError(await call('GET', `/v1/transactions/${a.transaction.id}`, { key: other.secretKey }), 404, 'NOT_FOUND');
  });
});
