import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGENERATE_COMMAND, SDK_SCHEMA_PATH, sdkSchemaSource } from '@/scripts/sdk-schema-source';
import { createEscrowClient, EscrowApiError } from '@/sdk/src';
import { baseUrl, expectLedgerBalanced, newClient } from './support/api';

const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** The error a call threw, so that its fields can be checked; fails when the call succeeded. */
async function thrownBy(call: Promise<unknown>): Promise<EscrowApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EscrowApiError);
  return error as EscrowApiError;
}

describe('the SDK (sdk/)', () => {
  // Generating types for every operation takes seconds of CPU: on a busy machine, more than the suite's default timeout.
  it('matches the OpenAPI document the server serves, byte for byte', { timeout: 120_000 }, async () => {
    const served = await fetch(`${baseUrl()}/v1/openapi.json`);
    expect(served.status).toBe(200);
    const generated = await sdkSchemaSource(await served.json());
    const committed = fs.readFileSync(path.resolve(__dirname, '../..', SDK_SCHEMA_PATH), 'utf8');
    if (generated !== committed) {
      throw new Error(`${SDK_SCHEMA_PATH} differs from the document /v1/openapi.json serves: run \`${REGENERATE_COMMAND}\` and commit the result.`);
    }
  });

  it("walks the seed's flow: users, bank account, transaction, fund, deliver, reject, disapprove, dispute, propose, approve", async () => {
    const client = await newClient();
    const escrow = createEscrowClient({ baseUrl: baseUrl(), apiKey: client.secretKey });

    const buyer = await escrow.post('/v1/users', { body: { first_name: 'Ada', last_name: 'Obi', email_address: `ada.${randomUUID()}@example.com` } });
    const seller = await escrow.post('/v1/users', { body: { first_name: 'Tunde', last_name: 'Balogun', email_address: `tunde.${randomUUID()}@example.com` } });
    expect(buyer).toMatchObject({ first_name: 'Ada', last_name: 'Obi' });

    // A retry with the same idempotency key answers the first call's result and moves no money twice.
    const idempotencyKey = randomUUID();
    const funding = { body: { user_id: buyer.id, amount: 150_000 }, idempotencyKey };
    const first = await escrow.raw.post('/v1/wallets/fund', funding);
    const retried = await escrow.raw.post('/v1/wallets/fund', funding);
    expect(first.data.data.balance).toBe(150_000);
    expect(retried.data).toEqual(first.data);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.response.headers.get('idempotent-replayed')).toBe('true');
    expect((await escrow.get('/v1/wallets/{user_id}', { params: { path: { user_id: buyer.id } } })).balance).toBe(150_000);

    const bankAccount = await escrow.post('/v1/wallets/banks/disbursement', { body: { user_id: seller.id, bank_code: '058', account_number: '0016563228' } });
    expect(bankAccount).toMatchObject({ account_number: '0016563228', bank_code: '058' });
    expect(bankAccount.account_name).toMatch(/\S/);

    const transaction = await escrow.post('/v1/transactions', {
      body: {
        title: 'Palm oil consignment',
        description: '20 jerrycans of palm oil',
        buyer_id: buyer.id,
        seller_id: seller.id,
        external_reference: `ORD-${randomUUID()}`,
        metadata: { channel: 'wholesale' },
        milestones: [{ title: '20 jerrycans', description: 'Delivered to Ikeja', amount: 100_000, due_date: inDays(14) }],
      },
    });
    expect(transaction).toMatchObject({ status: 'MILESTONE_PENDING_FUNDING', metadata: { channel: 'wholesale' } });
    expect(transaction.external_reference).toMatch(/^ORD-/);
    const milestoneId = transaction.milestones[0]!.id;
    const milestone = { params: { path: { id: milestoneId } } };

    const funded = await escrow.post('/v1/milestones/{id}/fund', { ...milestone, body: { buyer_id: buyer.id } });
    expect(funded).toMatchObject({ status: 'IN_PROGRESS', milestone_escrow: { balance: 100_000 } });
    expect((await escrow.get('/v1/wallets/{user_id}', { params: { path: { user_id: buyer.id } } })).balance).toBe(50_000);

    const proof = await escrow.post('/v1/files', { body: { file: new File([PIXEL_PNG], 'waybill.png', { type: 'image/png' }) } });
    const delivered = await escrow.post('/v1/milestones/{id}/deliver', { ...milestone, body: { seller_id: seller.id, proofs_of_completion: [proof.url] } });
    expect(delivered).toMatchObject({ status: 'UNDER_INSPECTION', proofs_of_completion: [proof.url] });

    const rejected = await escrow.post('/v1/milestones/{id}/reject', {
      ...milestone,
      body: { buyer_id: buyer.id, rejection_reason: 'Six jerrycans were leaking', proofs_of_return: [proof.url] },
    });
    expect(rejected.status).toBe('DELIVERY_RETURNED_AWAITING_APPROVAL');

    const disapproved = await escrow.patch('/v1/milestones/{id}/reject/disapprove', { ...milestone, body: { seller_id: seller.id } });
    expect(disapproved).toMatchObject({ status: 'DELIVERY_RETURN_REJECTED', milestone_escrow: { balance: 100_000 } });

    const opened = await escrow.post('/v1/dispute/create', {
      body: { description: 'Only six of twenty were affected', buyer_id: buyer.id, seller_id: seller.id, milestone_id: milestoneId },
    });
    expect(opened).toMatchObject({ status: 'INTRA_PARTY_MEDIATION', dispute_amount_status: 'PENDING', max_dispute_amount: 100_000 });
    const dispute = { params: { path: { id: opened.id } } };

    const proposed = await escrow.patch('/v1/dispute/{id}/add-dispute-amount', { ...dispute, body: { dispute_amount: 60_000, seller_id: seller.id } });
    expect(proposed).toMatchObject({ dispute_amount: 60_000, dispute_amount_status: 'SUBMITTED' });

    // The seller cannot approve its own proposal: the envelope's code and message arrive as a typed error.
    const wrongParty = await thrownBy(escrow.patch('/v1/dispute/{id}/approve-dispute-amount', { ...dispute, body: { buyer_id: seller.id } }));
    expect(wrongParty).toMatchObject({ name: 'EscrowApiError', code: 'WRONG_PARTY', status: 403 });
    expect(wrongParty.message).toMatch(/\S/);
    expect(wrongParty.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await escrow.get('/v1/dispute/{id}', dispute)).dispute_amount_status).toBe('SUBMITTED');

    const approved = await escrow.patch('/v1/dispute/{id}/approve-dispute-amount', { ...dispute, body: { buyer_id: buyer.id } });
    expect(approved).toMatchObject({ status: 'RESOLVED', dispute_amount_status: 'APPROVED', dispute_amount: 60_000 });
    expect(approved.milestone).toMatchObject({ status: 'DISPUTE_RESOLVED', milestone_escrow: { balance: 0 } });
    expect(approved.milestone.transaction.status).toBe('COMPLETED');
    // ₦60,000 to the seller less its 1% fee; the other ₦40,000 back to the buyer beside the ₦50,000 left unspent.
    expect((await escrow.get('/v1/wallets/{user_id}', { params: { path: { user_id: seller.id } } })).balance).toBe(59_400);
    expect((await escrow.get('/v1/wallets/{user_id}', { params: { path: { user_id: buyer.id } } })).balance).toBe(90_000);
    await expectLedgerBalanced();
  });

  it('throws EscrowApiError with the field list for refused input, and for a wrong key', async () => {
    const client = await newClient();
    const escrow = createEscrowClient({ baseUrl: baseUrl(), apiKey: client.secretKey });
    const invalid = await thrownBy(escrow.post('/v1/wallets/fund', { body: { user_id: 'not-a-uuid', amount: 10 } }));
    expect(invalid).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(invalid.errors.map((error) => error.field)).toContain('user_id');

    const stranger = createEscrowClient({ baseUrl: baseUrl(), apiKey: 'sk_test_not_a_key' });
    expect(await thrownBy(stranger.get('/v1/settings'))).toMatchObject({ status: 401 });
  });
});
