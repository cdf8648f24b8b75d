import 'server-only';
import { eq } from 'drizzle-orm';
import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateClientBody, ListClientsQuery, UpdateClientBody } from '@/lib/contracts/operator';
import { DEFAULT_FEE_POLICY } from '@/lib/escrow/fees';
import { koboToNaira, parseNaira } from '@/lib/escrow/money';
import { AppError, notFound } from '../app-error';
import { changeClient } from '../client-cache';
import type { Db } from '../db/client';
import { pagedList } from '../db/paged-list';
import { clients, type ClientRow } from '../db/schema';
import { iso } from '../records/iso';
import { issueSecretKey } from './api-keys';
import { createLedgerAccount } from '../engine/post-transfer';

const key = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`;

/** The secret key is returned once; only its hash is kept (docs/decisions.md §2). */
export async function createClient(db: Db, body: CreateClientBody, now: Date) {
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const feeAccountId = randomUUID();
    const externalAccountId = randomUUID();
    const payoutsAccountId = randomUUID();
    await createLedgerAccount(tx, { id: feeAccountId, clientId: id, kind: 'platform_fees', now });
    await createLedgerAccount(tx, { id: externalAccountId, clientId: id, kind: 'external', now });
    await createLedgerAccount(tx, { id: payoutsAccountId, clientId: id, kind: 'payouts_in_flight', now });
    const [client] = await tx
      .insert(clients)
      .values({
        id,
        name: body.name,
        mode: body.mode,
        publicKey: key(`pk_${body.mode}`),
        // Sandbox clients are KYC-complete; a live client completes KYC with the operator first (docs/decisions.md §2).
        isKycCompleted: body.mode === 'test',
        feeBasisPoints: DEFAULT_FEE_POLICY.basisPoints,
        feeCapKobo: DEFAULT_FEE_POLICY.capKobo,
        feeAccountId,
        externalAccountId,
        payoutsAccountId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!client) throw new Error('client insert returned nothing');
    const { secretKey } = await issueSecretKey(tx, client, now);
    return {
      id: client.id,
      name: client.name,
      mode: client.mode,
      public_key: client.publicKey,
      secret_key: secretKey,
      is_kyc_completed: client.isKycCompleted,
      fee_basis_points: client.feeBasisPoints,
      fee_cap: client.feeCapKobo === null ? null : koboToNaira(client.feeCapKobo),
      auto_payout: client.autoPayout,
      created_at: iso(client.createdAt),
    };
  });
}

/** A client as the operator sees it: never a key beyond the public one. */
export function clientRecord(client: ClientRow) {
  return {
    id: client.id,
    name: client.name,
    mode: client.mode,
    public_key: client.publicKey,
    is_kyc_completed: client.isKycCompleted,
    fee_basis_points: client.feeBasisPoints,
    fee_cap: client.feeCapKobo === null ? null : koboToNaira(client.feeCapKobo),
    auto_payout: client.autoPayout,
    created_at: iso(client.createdAt),
  };
}

/** PATCH /v1/operator/clients/{id}: every server holds the change once this answers (client-cache.ts). New fees apply to milestones created from now on. */
export async function updateClient(db: Db, clientId: string, body: UpdateClientBody, now: Date) {
  let feeCapKobo: number | null | undefined;
  if (body.fee_cap !== undefined) {
    if (body.fee_cap === null) feeCapKobo = null;
    else {
      const parsed = parseNaira(body.fee_cap);
      if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `fee_cap ${parsed.reason}`, [{ field: 'fee_cap', message: parsed.reason }]);
      feeCapKobo = parsed.kobo;
    }
  }
  return changeClient(db, clientId, async (tx) => {
    const [updated] = await tx
      .update(clients)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.is_kyc_completed !== undefined ? { isKycCompleted: body.is_kyc_completed } : {}),
        ...(body.fee_basis_points !== undefined ? { feeBasisPoints: body.fee_basis_points } : {}),
        ...(feeCapKobo !== undefined ? { feeCapKobo } : {}),
        ...(body.auto_payout !== undefined ? { autoPayout: body.auto_payout } : {}),
        updatedAt: now,
      })
      .where(eq(clients.id, clientId))
      .returning();
    if (!updated) throw notFound('Client', clientId);
    return clientRecord(updated);
  });
}

// Every client is the operator's: any client's id is a cursor of this list. A service has few clients: their total is counted.
const clientPage = pagedList(clients, 'operator_clients', 'Client', () => undefined, () => undefined, () => undefined);

/** The operator's view of the clients, a page at a time: never a key beyond the public one. */
export async function listClients(db: Db, q: ListClientsQuery) {
  const { rows, pagination } = await clientPage(db, { sort: q.sort }, q);
  return { clients: rows.map(clientRecord), pagination };
}
