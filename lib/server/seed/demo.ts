import 'server-only';
import { eq } from 'drizzle-orm';
import { claimDemoClient, claimSetting, DEMO_SEEDED } from '../app-settings';
import { storeClientKey } from '../dashboard/client-keys';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { approveDelivery } from '../services/approve-delivery';
import { addDisputeAmount } from '../services/add-dispute-amount';
import { saveBankAccount } from '../services/bank-accounts';
import { createClient } from '../services/create-client';
import { createDispute } from '../services/create-dispute';
import { deliverMilestone } from '../services/deliver-milestone';
import { disapproveReturn } from '../services/disapprove-return';
import { storeFile } from '../services/files';
import { fundMilestone } from '../services/fund-milestone';
import { rejectDelivery } from '../services/reject-delivery';
import { createTransaction } from '../services/transactions';
import { createUser } from '../services/users';
import { fundWallet } from '../services/wallets';

export const DEMO_BUYER_EMAIL = 'ada.obi@demo.escrowdesk.ng';
export const DEMO_SELLER_EMAIL = 'tunde.balogun@demo.escrowdesk.ng';

// A 1×1 PNG: a real image, so the dashboard previews it as one.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const OTHER_CUSTOMERS: Array<[string, string]> = [
  ['Chioma', 'Eze'], ['Emeka', 'Okafor'], ['Halima', 'Ibrahim'], ['Kehinde', 'Adeyemi'], ['Ngozi', 'Nwosu'],
  ['Garba', 'Danjuma'], ['Yetunde', 'Fashola'], ['Uche', 'Onyeka'], ['Zainab', 'Yusuf'], ['Oluwaseun', 'Olawale'],
];

/**
 * On first start only: a sandbox client whose keys the dashboard keeps, and customers with transactions
 * in several states, so the product is alive at once. Returns undefined when already seeded.
 */
export async function seedDemoOnce(db: Db, now: Date, baseUrl: string) {
  if (!(await claimSetting(db, DEMO_SEEDED, { at: now.toISOString() }, now))) return undefined;

  const created = await createClient(db, { name: 'Demo Marketplace', mode: 'test' }, now);
  await claimDemoClient(db, { client_id: created.id, public_key: created.public_key }, now);
  await storeClientKey(db, created.id, created.secret_key, now);
  const [client] = await db.select().from(clients).where(eq(clients.id, created.id));
  if (!client) throw new Error('demo client missing');

  const buyer = await createUser(db, client, { first_name: 'Ada', last_name: 'Obi', email_address: DEMO_BUYER_EMAIL }, now);
  const seller = await createUser(db, client, { first_name: 'Tunde', last_name: 'Balogun', email_address: DEMO_SELLER_EMAIL }, now);
  for (const [first, last] of OTHER_CUSTOMERS) {
    await createUser(db, client, { first_name: first, last_name: last, email_address: `${first}.${last}@demo.escrowdesk.ng`.toLowerCase() }, now);
  }
  await fundWallet(db, client, { user_id: buyer.id, amount: 5_000_000 }, now);
  // Published GTBank NUBAN (see lib/escrow/nuban.test.ts).
  await saveBankAccount(db, client, { user_id: seller.id, bank_code: '058', account_number: '0016563228' }, now);

  const proof = await storeFile(db, client.id, { bytes: PIXEL_PNG, declaredType: 'image/png', filename: 'waybill.png' }, now, baseUrl);
  const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
  const transaction = (title: string, description: string, milestones: Array<[string, number]>) =>
    createTransaction(
      db,
      client,
      {
        title,
        description,
        buyer_id: buyer.id,
        seller_id: seller.id,
        milestones: milestones.map(([t, amount], i) => ({ title: t, description: `${t} for ${title.toLowerCase()}`, amount, due_date: inDays(14 * (i + 1)) })),
      },
      now,
      baseUrl,
    );
  const milestoneId = (t: Awaited<ReturnType<typeof transaction>>, index: number) => {
    const id = t.milestones[index]?.id;
    if (!id) throw new Error('demo milestone missing');
    return id;
  };

  const solar = await transaction('Solar panels for Kaduna farm', 'Supply and installation of 12 solar panels', [
    ['Panels delivered to site', 450_000],
    ['Installation and commissioning', 300_000],
  ]);
  await fundMilestone(db, client, milestoneId(solar, 0), buyer.id, now);
  await deliverMilestone(db, client, milestoneId(solar, 0), { seller_id: seller.id, proofs_of_completion: [proof.url] }, now, baseUrl);
  await approveDelivery(db, client, milestoneId(solar, 0), buyer.id, now);
  await fundMilestone(db, client, milestoneId(solar, 1), buyer.id, now);
  await deliverMilestone(db, client, milestoneId(solar, 1), { seller_id: seller.id, proofs_of_completion: [proof.url] }, now, baseUrl);

  await transaction('Bulk rice supply', '40 bags of Ofada rice, Abeokuta to Lagos', [['40 bags of rice', 1_200_000]]);

  const website = await transaction('Shop website redesign', 'New storefront and checkout', [
    ['Design mock-ups', 150_000],
    ['Build and launch', 350_000],
  ]);
  await fundMilestone(db, client, milestoneId(website, 0), buyer.id, now);

  const palmOil = await transaction('Palm oil consignment', '20 jerrycans of palm oil', [['20 jerrycans', 400_000]]);
  const palmMilestone = milestoneId(palmOil, 0);
  await fundMilestone(db, client, palmMilestone, buyer.id, now);
  await deliverMilestone(db, client, palmMilestone, { seller_id: seller.id, proofs_of_completion: [proof.url] }, now, baseUrl);
  await rejectDelivery(db, client, palmMilestone, { buyer_id: buyer.id, rejection_reason: 'Six jerrycans were leaking', proofs_of_return: [proof.url] }, now, baseUrl);
  await disapproveReturn(db, client, palmMilestone, seller.id, now);
  const dispute = await createDispute(db, client, { description: 'Only six of twenty were affected', buyer_id: buyer.id, seller_id: seller.id, milestone_id: palmMilestone, opened_by: 'seller' }, now, baseUrl);
  await addDisputeAmount(db, client, dispute.id, { dispute_amount: 280_000, seller_id: seller.id }, now, baseUrl);

  const fabric = await transaction('Ankara fabric order', '50 yards of Ankara print', [['50 yards of fabric', 90_000]]);
  await fundMilestone(db, client, milestoneId(fabric, 0), buyer.id, now);
  await deliverMilestone(db, client, milestoneId(fabric, 0), { seller_id: seller.id, proofs_of_completion: [proof.url] }, now, baseUrl);
  await rejectDelivery(db, client, milestoneId(fabric, 0), { buyer_id: buyer.id, rejection_reason: 'Wrong print delivered', proofs_of_return: [proof.url] }, now, baseUrl);

  return { client_id: client.id, buyer_email: DEMO_BUYER_EMAIL, seller_email: DEMO_SELLER_EMAIL };
}
