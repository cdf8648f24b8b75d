/**
 * Model-based property test: random sequences of operations by random actors on random milestones,
 * checked step by step against a model built from the pure domain (lib/escrow). After every step the
 * ledger balances, no balance is negative, every escrow holds exactly what the model says, and every
 * status is one the state machine allows.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decideDisputeAction, type DisputeAmountStatus, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import { fundingAmount, type CommissionPayer } from '@/lib/escrow/fees';
import { maxSellerPayment, settlementBreakdown } from '@/lib/escrow/ledger';
import { ACTING_PARTY, decideMilestoneAction, MILESTONE_STATUSES, type MilestoneAction, type MilestoneStatus } from '@/lib/escrow/milestone-machine';
import { call, expectOk, inDays, ledgerIntegrity, newClient, newUser, uploadProof, type TestClient } from './support/api';

type Actor = 'buyer' | 'seller' | 'stranger';
/** Who sends the request: mostly the party the operation needs, sometimes the other one or a stranger. */
type Sender = 'right' | 'other' | 'stranger';
type DisputeAction = 'add_dispute_amount' | 'approve_dispute_amount' | 'reject_dispute_amount';
type Command =
  | { kind: 'milestone'; action: MilestoneAction; sender: Sender; milestone: number }
  | { kind: 'dispute'; action: DisputeAction; sender: Sender; milestone: number; share: number }
  | { kind: 'top_up'; actor: Actor; naira: number };

/** Mostly "do something the model allows next" (so sequences get deep), sometimes anything at all. */
type Intent = { kind: 'intent'; pick: 'allowed' | 'any'; seed: number; sender: Sender; milestone: number; share: number } | Extract<Command, { kind: 'top_up' }>;

const MILESTONE_ACTIONS_ALL = ['fund', 'deliver', 'approve', 'reject', 'approve_return', 'disapprove_return', 'open_dispute'] as const;
const DISPUTE_ACTIONS_ALL = ['add_dispute_amount', 'approve_dispute_amount', 'reject_dispute_amount'] as const;

const PATH_WEIGHT: Partial<Record<MilestoneAction | DisputeAction, number>> = {
  reject: 2,
  disapprove_return: 3,
  open_dispute: 4,
  add_dispute_amount: 4,
  approve_dispute_amount: 3,
  reject_dispute_amount: 3,
};

const DISPUTE_PARTY: Record<DisputeAction, 'buyer' | 'seller'> = {
  add_dispute_amount: 'seller',
  approve_dispute_amount: 'buyer',
  reject_dispute_amount: 'buyer',
};

/** Who the generated request acts as: a dispute is opened as the seller (opened_by's default), though either party may. */
function actingParty(action: MilestoneAction): 'buyer' | 'seller' {
  const party = ACTING_PARTY[action];
  return party === 'either' ? 'seller' : party;
}

function actorOf(cmd: Command): Actor {
  if (cmd.kind === 'top_up') return cmd.actor;
  const right = cmd.kind === 'milestone' ? actingParty(cmd.action) : DISPUTE_PARTY[cmd.action];
  if (cmd.sender === 'right') return right;
  if (cmd.sender === 'other') return right === 'buyer' ? 'seller' : 'buyer';
  return 'stranger';
}

const INITIAL_BUYER_KOBO = 300_000_00;

type ModelMilestone = { id: string; transaction: number; position: number; status: MilestoneStatus; amount: number; fee: number; payer: CommissionPayer; escrow: number };
type ModelDispute = { id: string; status: DisputeStatus; amountStatus: DisputeAmountStatus; amount: number };

const tally = { runs: 0, steps: 0, succeeded: 0, refused: 0, byOperation: new Map<string, number>(), succeededByOperation: new Map<string, number>(), actors: new Set<Actor>() };

const senderArb = fc.constantFrom<Sender>('right', 'right', 'right', 'right', 'right', 'right', 'other', 'stranger');
const intentArb: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('intent' as const),
      pick: fc.constantFrom<'allowed' | 'any'>('allowed', 'allowed', 'allowed', 'any'),
      seed: fc.nat(1_000),
      sender: senderArb,
      milestone: fc.nat(3),
      share: fc.double({ min: 0, max: 1.2, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('top_up' as const), actor: fc.constantFrom<Actor>('buyer', 'seller'), naira: fc.integer({ min: 1, max: 300_000 }) }) },
);

async function setUp(client: TestClient) {
  const users = { buyer: await newUser(client, 'Buyer'), seller: await newUser(client, 'Seller'), stranger: await newUser(client, 'Stranger') };
  expectOk(await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: users.buyer.id, amount: INITIAL_BUYER_KOBO / 100 } }));
  const wallets = new Map<Actor, number>([['buyer', INITIAL_BUYER_KOBO], ['seller', 0], ['stranger', 0]]);
  const proof = await uploadProof(client);
  const milestones: ModelMilestone[] = [];
  const plans: Array<{ payer: CommissionPayer; amounts: number[] }> = [
    { payer: 'SELLER_100', amounts: [120_000, 45_000.5] },
    { payer: 'SPLIT_50_50', amounts: [80_000.25, 10_000] },
  ];
  for (const [index, plan] of plans.entries()) {
    const t = expectOk(
      await call('POST', '/v1/transactions', {
        key: client.secretKey,
        body: {
          title: `Property deal ${index}`,
          description: 'generated',
          buyer_id: users.buyer.id,
          seller_id: users.seller.id,
          commission_payer: plan.payer,
          milestones: plan.amounts.map((amount, i) => ({ title: `M${i + 1}`, description: 'd', amount, due_date: inDays(5) })),
        },
      }),
    );
    for (const m of t.milestones) {
      milestones.push({ id: m.id, transaction: index, position: m.position_in_transaction, status: 'PENDING_FUNDING', amount: Math.round(m.amount * 100), fee: Math.round(m.milestone_fee * 100), payer: plan.payer, escrow: 0 });
    }
  }
  return { users, wallets, proof, milestones, disputes: new Map<string, ModelDispute>(), transactionAmounts: plans.map((p) => Math.round(p.amounts.reduce((a, b) => a + b, 0) * 100)) };
}

type World = Awaited<ReturnType<typeof setUp>>;

const stateOf = (m: ModelMilestone) => ({ id: m.id, status: m.status, position: m.position });
const siblingsOf = (world: World, m: ModelMilestone) => world.milestones.filter((s) => s.transaction === m.transaction).map(stateOf);

/** What the model expects: the HTTP status, and on success how the world changes. */
function expectation(world: World, cmd: Command): { status: number; apply?: (response: any) => void } {
  if (cmd.kind === 'top_up') {
    return { status: 200, apply: () => world.wallets.set(cmd.actor, world.wallets.get(cmd.actor)! + cmd.naira * 100) };
  }
  const m = world.milestones[cmd.milestone]!;
  if (cmd.kind === 'milestone') {
    if (actorOf(cmd) !== actingParty(cmd.action)) return { status: 403 };
    const decision = decideMilestoneAction(cmd.action, stateOf(m), siblingsOf(world, m));
    if (!decision.ok) return { status: 409 };
    const terms = { milestoneAmount: m.amount, milestoneFee: m.fee, commissionPayer: m.payer, escrowBalance: m.escrow };
    switch (cmd.action) {
      case 'fund': {
        const needed = fundingAmount(m.amount, m.fee, m.payer);
        if (world.wallets.get('buyer')! < needed) return { status: 409 };
        return { status: 200, apply: () => { world.wallets.set('buyer', world.wallets.get('buyer')! - needed); m.escrow = needed; m.status = decision.to; } };
      }
      case 'approve': {
        const split = settlementBreakdown(m.amount, terms);
        return { status: 200, apply: () => { world.wallets.set('seller', world.wallets.get('seller')! + split.toSeller); world.wallets.set('buyer', world.wallets.get('buyer')! + split.toBuyer); m.escrow = 0; m.status = decision.to; } };
      }
      case 'approve_return':
        return { status: 200, apply: () => { world.wallets.set('buyer', world.wallets.get('buyer')! + m.escrow); m.escrow = 0; m.status = decision.to; } };
      case 'open_dispute':
        return {
          status: 200,
          apply: (data) => {
            m.status = decision.to;
            world.disputes.set(m.id, { id: data.id, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'PENDING', amount: 0 });
          },
        };
      default:
        return { status: 200, apply: () => { m.status = decision.to; } };
    }
  }
  const dispute = world.disputes.get(m.id);
  if (!dispute) return { status: -1 }; // no dispute on this milestone: the command is skipped
  if (actorOf(cmd) !== DISPUTE_PARTY[cmd.action]) return { status: 403 };
  const decision = decideDisputeAction(cmd.action, { status: dispute.status, amountStatus: dispute.amountStatus });
  if (!decision.ok) return { status: 409 };
  const terms = { milestoneAmount: m.amount, milestoneFee: m.fee, commissionPayer: m.payer, escrowBalance: m.escrow };
  const max = maxSellerPayment(terms, world.transactionAmounts[m.transaction]!);
  if (cmd.action === 'add_dispute_amount') {
    const proposed = Math.round(max * cmd.share);
    if (proposed > max) return { status: 400 };
    return { status: 200, apply: () => Object.assign(dispute, { status: decision.status, amountStatus: decision.amountStatus, amount: proposed }) };
  }
  if (cmd.action === 'reject_dispute_amount') return { status: 200, apply: () => Object.assign(dispute, { status: decision.status, amountStatus: decision.amountStatus }) };
  const split = settlementBreakdown(dispute.amount, terms);
  return {
    status: 200,
    apply: () => {
      Object.assign(dispute, { status: decision.status, amountStatus: decision.amountStatus });
      world.wallets.set('seller', world.wallets.get('seller')! + split.toSeller);
      world.wallets.set('buyer', world.wallets.get('buyer')! + split.toBuyer);
      m.escrow = 0;
      m.status = 'DISPUTE_RESOLVED';
    },
  };
}

function request(world: World, cmd: Command): [string, string, Record<string, unknown>] {
  const id = (actor: Actor) => world.users[actor].id;
  if (cmd.kind === 'top_up') return ['POST', '/v1/wallets/fund', { user_id: id(cmd.actor), amount: cmd.naira }];
  const sender = actorOf(cmd);
  const m = world.milestones[cmd.milestone]!;
  if (cmd.kind === 'dispute') {
    const dispute = world.disputes.get(m.id)!;
    const max = maxSellerPayment({ milestoneAmount: m.amount, milestoneFee: m.fee, commissionPayer: m.payer, escrowBalance: m.escrow }, world.transactionAmounts[m.transaction]!);
    if (cmd.action === 'add_dispute_amount') return ['PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { seller_id: id(sender), dispute_amount: Math.round(max * cmd.share) / 100 }];
    if (cmd.action === 'reject_dispute_amount') return ['PATCH', `/v1/dispute/${dispute.id}/reject-dispute-amount`, { buyer_id: id(sender), reason: 'no' }];
    return ['PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { buyer_id: id(sender) }];
  }
  const who = (role: 'buyer' | 'seller') => ({ [`${role}_id`]: id(sender) });
  switch (cmd.action) {
    case 'fund': return ['POST', `/v1/milestones/${m.id}/fund`, who('buyer')];
    case 'deliver': return ['POST', `/v1/milestones/${m.id}/deliver`, { ...who('seller'), proofs_of_completion: [world.proof] }];
    case 'approve': return ['POST', `/v1/milestones/${m.id}/approve`, who('buyer')];
    case 'reject': return ['POST', `/v1/milestones/${m.id}/reject`, { ...who('buyer'), rejection_reason: 'generated', proofs_of_return: [world.proof] }];
    case 'approve_return': return ['PATCH', `/v1/milestones/${m.id}/reject/approve`, who('seller')];
    case 'disapprove_return': return ['PATCH', `/v1/milestones/${m.id}/reject/disapprove`, who('seller')];
    case 'open_dispute': return ['POST', '/v1/dispute/create', { description: 'generated', buyer_id: world.users.buyer.id, seller_id: id(sender), milestone_id: m.id }];
  }
}

/** Turns an intent into a concrete command against the model's current state. */
function resolve(world: World, intent: Intent): Command {
  if (intent.kind === 'top_up') return intent;
  const isDisputeAction = (action: string): action is DisputeAction => (DISPUTE_ACTIONS_ALL as readonly string[]).includes(action);
  const options: Array<[number, MilestoneAction | DisputeAction]> = [];
  world.milestones.forEach((m, index) => {
    const dispute = world.disputes.get(m.id);
    for (const action of [...MILESTONE_ACTIONS_ALL, ...(dispute ? DISPUTE_ACTIONS_ALL : [])]) {
      const allowed = isDisputeAction(action)
        ? decideDisputeAction(action, { status: dispute!.status, amountStatus: dispute!.amountStatus }).ok
        : decideMilestoneAction(action, stateOf(m), siblingsOf(world, m)).ok;
      // The dispute path is the deepest; weight it so sequences reach mediation often.
      const weight = intent.pick === 'allowed' ? (PATH_WEIGHT[action] ?? 1) : 1;
      if (intent.pick === 'any' || allowed) for (let i = 0; i < weight; i++) options.push([index, action]);
    }
  });
  const fallback: [number, MilestoneAction] = [intent.milestone, MILESTONE_ACTIONS_ALL[intent.seed % MILESTONE_ACTIONS_ALL.length]!];
  const [milestone, action] = options.length > 0 ? options[intent.seed % options.length]! : fallback;
  return isDisputeAction(action)
    ? { kind: 'dispute', action, sender: intent.sender, milestone, share: intent.share }
    : { kind: 'milestone', action, sender: intent.sender, milestone };
}

async function assertWorld(client: TestClient, world: World) {
  const report = await ledgerIntegrity();
  expect(report.balanced, JSON.stringify(report)).toBe(true);
  for (const actor of ['buyer', 'seller', 'stranger'] as const) {
    const wallet = expectOk(await call('GET', `/v1/wallets/${world.users[actor].id}`, { key: client.secretKey }));
    expect(Math.round(wallet.balance * 100), `${actor} wallet`).toBe(world.wallets.get(actor));
  }
  const transactionIds = new Set<string>();
  for (const m of world.milestones) {
    const got = expectOk(await call('GET', `/v1/milestones/${m.id}`, { key: client.secretKey }));
    transactionIds.add(got.transaction_id);
    expect(MILESTONE_STATUSES).toContain(got.status);
    expect(got.status, `milestone ${m.transaction}.${m.position}`).toBe(m.status);
    expect(Math.round(got.milestone_escrow.balance * 100), `escrow ${m.transaction}.${m.position}`).toBe(m.escrow);
    expect(got.milestone_escrow.balance).toBeGreaterThanOrEqual(0);
  }
  for (const id of transactionIds) {
    const t = expectOk(await call('GET', `/v1/transactions/${id}`, { key: client.secretKey }));
    const held = t.milestones.reduce((sum: number, x: { milestone_escrow: { balance: number } }) => sum + Math.round(x.milestone_escrow.balance * 100), 0);
    const fees = world.milestones.filter((m) => t.milestones.some((x: { id: string }) => x.id === m.id)).reduce((sum, m) => sum + (m.status === 'COMPLETED' ? m.fee : 0), 0);
    const disputed = Math.round((t.total_amount_funded - t.total_amount_disbursed - t.total_amount_refunded) * 100) - held;
    // Every kobo funded is still held, released, refunded, or taken as a fee.
    if (!world.milestones.some((m) => m.status === 'DISPUTE_RESOLVED')) expect(disputed).toBe(fees);
    else expect(disputed).toBeGreaterThanOrEqual(0);
  }
}

describe('random sequences of operations by random actors', () => {
  it('keep the ledger balanced and every balance and status as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(intentArb, { minLength: 10, maxLength: 40 }), async (intents) => {
        const client = await newClient();
        const world = await setUp(client);
        tally.runs++;
        for (const intent of intents) {
          const cmd = resolve(world, intent);
          const expected = expectation(world, cmd);
          if (expected.status === -1) continue;
          const [method, path, body] = request(world, cmd);
          const res = await call(method, path, { key: client.secretKey, body });
          tally.steps++;
          tally.actors.add(actorOf(cmd));
          tally.byOperation.set(cmd.kind === 'top_up' ? 'top_up' : cmd.action, (tally.byOperation.get(cmd.kind === 'top_up' ? 'top_up' : cmd.action) ?? 0) + 1);
          expect(res.status, `${method} ${path} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(expected.status);
          if (res.status === 200) {
            tally.succeeded++;
            tally.succeededByOperation.set(cmd.kind === 'top_up' ? 'top_up' : cmd.action, (tally.succeededByOperation.get(cmd.kind === 'top_up' ? 'top_up' : cmd.action) ?? 0) + 1);
            expected.apply?.(res.body.data);
          } else {
            tally.refused++;
            expect(res.body.status).toBe(false);
          }
          await assertWorld(client, world);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 15), endOnFailure: true },
    );
  }, 600_000);
});

afterAll(() => {
  console.log(
    `property sequences: ${tally.runs} runs, ${tally.steps} operations (${tally.succeeded} succeeded, ${tally.refused} refused) by ${tally.actors.size} kinds of actor; ` +
      [...tally.byOperation.entries()].map(([op, n]) => `${op} ${tally.succeededByOperation.get(op) ?? 0}/${n}`).join(', '),
  );
});
