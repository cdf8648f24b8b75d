/**
 * Wrong actors for every operation that names an acting party in the API app (support/operations.ts)
 * (docs/decisions.md §5: "the acting id must be the party that the operation's Who acts row names, else
 * 403"). Each operation is staged where the right party would succeed; then every party field of
 * its body is sent naming someone else — the other party, a third user of the same client, a party
 * of another deal of the same client, a user of another client, ids that are no user at all — by
 * user id and by party id. Each refusal must be 403 WRONG_PARTY and change nothing; the right party
 * then succeeds, by user id, by party id and by user id in upper case. Where either party may act
 * (escalation, evidence), the body names one of them in its own field: the buyer as buyer_id and the
 * seller as seller_id are both right, and each field gets the whole matrix (the other party named in
 * it, e.g. the buyer's id as seller_id, is one of the wrong actors).
 *
 * Another client's key is auth-and-isolation.test.ts's business (404); here the key is always the
 * owner's and only the acting id is wrong.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { OPERATIONS, type Operation } from './support/operations';
import { call, expectOk, inDays, ledgerIntegrity, newClient, newDeal, newUser, snapshot, type ApiResponse, type TestClient } from './support/api';
import { STAGE_OF, stageMilestone, type Deal, type StagedMilestone as Staged } from './support/staging';

type Role = 'buyer' | 'seller';
type Body = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// A deal in the state where each operation's right party succeeds

async function stage(op: Operation, client: TestClient, actor: Role = actorsOf(op)[0]!): Promise<Staged> {
  const target = STAGE_OF[op.id];
  if (!target) throw new Error(`No stage for ${op.id}: add the state in which its ${op.actingParty} succeeds to support/staging.ts`);
  return stageMilestone(client, target, undefined, actor);
}

/**
 * Who may act: the one party the operation names, or, for actions open to either party (escalation,
 * evidence), both of them, each naming itself in its own field (buyer_id or seller_id, exactly one).
 */
const actorsOf = (op: Operation): Role[] => (op.actingParty === 'either' ? ['buyer', 'seller'] : [op.actingParty!]);

const whoActs = (op: Operation) => (op.actingParty === 'either' ? 'either party acts' : `the ${op.actingParty} acts`);

/** The right party's request, naming each party by user id; `actor` picks which party acts when either may. */
function requestFor(op: Operation, s: Staged, actor: Role = actorsOf(op)[0]!): { method: string; path: string; body: Body } {
  const buyer = s.deal.buyer.id;
  const seller = s.deal.seller.id;
  const bodies: Record<string, Body> = {
    fundMilestone: { buyer_id: buyer },
    deliverMilestone: { seller_id: seller, proofs_of_completion: [s.proof] },
    approveDelivery: { buyer_id: buyer },
    rejectDelivery: { buyer_id: buyer, rejection_reason: 'Not as described', proofs_of_return: [s.proof] },
    approveReturn: { seller_id: seller },
    disapproveReturn: { seller_id: seller },
    createDispute: { description: 'Return refused', buyer_id: buyer, seller_id: seller, milestone_id: s.milestoneId },
    addDisputeAmount: { dispute_amount: 300, seller_id: seller },
    approveDisputeAmount: { buyer_id: buyer },
    rejectDisputeAmount: { buyer_id: buyer, reason: 'Too much' },
    counterOffer: { buyer_id: buyer, amount: 200, reason: 'Half is fair' },
    acceptCounterOffer: { seller_id: seller },
    escalateDispute: { [`${actor}_id`]: s.deal[actor].id },
    submitEvidence: { [`${actor}_id`]: s.deal[actor].id, text: `The ${actor}'s account of what happened`, files: [s.proof] },
    cancelDispute: { seller_id: seller, cancellation_agreement_details: 'We settled it between ourselves' },
    cancelTransaction: { [`${actor}_id`]: s.deal[actor].id, reason: 'We no longer need this' },
    approveCancellation: { [`${actor}_id`]: s.deal[actor].id },
    declineCancellation: { [`${actor}_id`]: s.deal[actor].id, reason: 'The work is nearly done' },
    terminateTransaction: { [`${actor}_id`]: s.deal[actor].id, reason: 'We part ways after the dispute' },
    rateTransaction: { [`${actor}_id`]: s.deal[actor].id, score: 5, comment: 'Smooth deal' },
    requestExtension: { seller_id: seller, due_date: inDays(30), reason: 'Supplier delay' },
    approveExtension: { buyer_id: buyer },
    declineExtension: { buyer_id: buyer, reason: 'The date matters to us' },
    refundMilestone: { seller_id: seller, amount: 300, reason: 'Part of the order was out of stock' },
    proposePartialAcceptance: { buyer_id: buyer, release_amount: 600, reason: 'Part arrived broken' },
    acceptPartialAcceptance: { seller_id: seller },
    declinePartialAcceptance: { seller_id: seller, reason: 'It left us intact' },
    extendEvidenceWindow: { [`${actor}_id`]: s.deal[actor].id, reason: 'The courier report comes on Monday' },
  };
  const body = bodies[op.id];
  if (!body) throw new Error(`No request recipe for ${op.id}: add one to wrong-party.test.ts`);
  const path = op.path.replace(/\{([a-z_]+)\}/g, () => {
    if (op.path.startsWith('/v1/milestones/')) return s.milestoneId;
    if (op.path.startsWith('/v1/dispute/')) return s.disputeId!;
    if (op.path.startsWith('/v1/transactions/')) return s.deal.transaction.id;
    throw new Error(`No path id recipe for ${op.path}: add one to wrong-party.test.ts`);
  });
  return { method: op.method.toUpperCase(), path, body };
}

/** The fields of a body that name a party: the acting one first. */
function partyFields(op: Operation, body: Body, actor: Role = actorsOf(op)[0]!): Role[] {
  const named = (['buyer', 'seller'] as const).filter((role) => `${role}_id` in body);
  return [...named.filter((r) => r === actor), ...named.filter((r) => r !== actor)];
}

const other = (role: Role): Role => (role === 'buyer' ? 'seller' : 'buyer');

// ---------------------------------------------------------------------------------------------
// Who else could be named

type World = { s: Staged; bystander: Deal; loner: { id: string }; foreign: Deal };

/** Someone who is not `role` of the staged deal, and how they are named. */
type Impostor = { who: (role: Role) => string; form: 'user id' | 'party id' | 'id'; id: (w: World, role: Role) => string };

const IMPOSTORS: Impostor[] = [
  { who: (role) => `the ${other(role)} of this deal`, form: 'user id', id: (w, role) => w.s.deal[other(role)].id },
  { who: (role) => `the ${other(role)} of this deal`, form: 'party id', id: (w, role) => w.s.deal.transaction[`${other(role)}_id`] },
  { who: () => 'a third user of this client, in no deal', form: 'user id', id: (w) => w.loner.id },
  { who: (role) => `the ${role} of another deal of this client`, form: 'user id', id: (w, role) => w.bystander[role].id },
  { who: (role) => `the ${role} of another deal of this client`, form: 'party id', id: (w, role) => w.bystander.transaction[`${role}_id`] },
  { who: (role) => `the ${role} of a deal of another client`, form: 'user id', id: (w, role) => w.foreign[role].id },
  { who: (role) => `the ${role} of a deal of another client`, form: 'party id', id: (w, role) => w.foreign.transaction[`${role}_id`] },
  { who: () => "this deal's transaction (an id that is no user or party)", form: 'id', id: (w) => w.s.deal.transaction.id },
  { who: () => 'nobody (a random UUID)', form: 'id', id: () => randomUUID() },
];

// ---------------------------------------------------------------------------------------------
// State

const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

function differences(before: unknown, after: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 12) return out;
  if (before !== null && after !== null && typeof before === 'object' && typeof after === 'object') {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) differences((before as Body)[key], (after as Body)[key], `${path}.${key}`, out);
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push(`${path}: ${clip(JSON.stringify(before) ?? 'undefined', 120)} → ${clip(JSON.stringify(after) ?? 'undefined', 120)}`);
  }
  return out;
}

/** The deal as `snapshot` shows it, with the client's dispute list narrowed to this deal's milestones. */
async function state(client: TestClient, deal: Deal): Promise<unknown> {
  const [transaction, buyerWallet, sellerWallet, disputes, logs] = JSON.parse(await snapshot(client, deal));
  const milestones = new Set((transaction.data.milestones as Array<{ id: string }>).map((m) => m.id));
  const ours = (disputes.data.disputes as Array<{ milestone_id: string }>).filter((d) => milestones.has(d.milestone_id));
  return [transaction, buyerWallet, sellerWallet, ours, logs];
}

async function expectLedgerBalanced() {
  expect(await ledgerIntegrity()).toMatchObject({ balanced: true, ledger_sum_kobo: 0, unbalanced_transfers: [], accounts_not_matching_entries: [], negative_accounts: [] });
}

// ---------------------------------------------------------------------------------------------
// The matrix

const actingOps = OPERATIONS.filter((op) => op.actingParty);
let refusals = 0;
let successes = 0;

afterAll(() => {
  console.log(`wrong-party.test.ts covered ${refusals + successes} matrix cells: ${refusals} wrong actors refused, ${successes} right-party successes, over ${actingOps.length} operations`);
});

describe('the operations list', () => {
  it('names an acting party on every milestone and dispute action, and this file has a stage and a recipe for each', () => {
    expect(actingOps.map((op) => op.id).sort()).toEqual(
      [
        'acceptCounterOffer',
        'acceptPartialAcceptance',
        'addDisputeAmount',
        'approveCancellation',
        'approveDelivery',
        'approveDisputeAmount',
        'approveExtension',
        'approveReturn',
        'cancelDispute',
        'cancelTransaction',
        'counterOffer',
        'createDispute',
        'declineCancellation',
        'declineExtension',
        'declinePartialAcceptance',
        'deliverMilestone',
        'disapproveReturn',
        'escalateDispute',
        'extendEvidenceWindow',
        'fundMilestone',
        'proposePartialAcceptance',
        'refundMilestone',
        'rejectDelivery',
        'rateTransaction',
        'rejectDisputeAmount',
        'requestExtension',
        'submitEvidence',
        'terminateTransaction',
      ].sort(),
    );
    expect(actingOps.filter((op) => op.actingParty === 'either').map((op) => op.id).sort()).toEqual(
      ['approveCancellation', 'cancelTransaction', 'declineCancellation', 'escalateDispute', 'extendEvidenceWindow', 'rateTransaction', 'submitEvidence', 'terminateTransaction'].sort(),
    );
    const fake: Staged = {
      client: { id: randomUUID(), secretKey: 'sk_test_placeholder', publicKey: 'pk_test_placeholder' },
      deal: { buyer: { id: randomUUID() }, seller: { id: randomUUID() }, transaction: { id: randomUUID() }, milestoneIds: [randomUUID()] } as unknown as Deal,
      milestoneId: randomUUID(),
      disputeId: randomUUID(),
      proof: 'https://example.com/proof.png',
    };
    for (const op of actingOps) {
      expect(STAGE_OF[op.id], op.id).toBeDefined();
      for (const actor of actorsOf(op)) {
        const { body } = requestFor(op, fake, actor);
        expect(partyFields(op, body, actor)[0], `${op.id} names its acting party first`).toBe(actor);
        // Either party acts by naming itself, and only itself: the body names exactly one party.
        if (op.actingParty === 'either') expect(partyFields(op, body, actor), `${op.id} as the ${actor}`).toEqual([actor]);
      }
      expect(op.errors, op.id).toContain('WRONG_PARTY');
    }
  });
});

describe.each(actingOps.map((op) => [`${op.method.toUpperCase()} ${op.path} (${whoActs(op)})`, op] as const))('%s', (_name, op) => {
  let client: TestClient;
  let stranger: TestClient;
  let world: World;
  let before: unknown;
  let bystanderBefore: unknown;
  let foreignBefore: unknown;
  const placeholder: Staged = {
    client: { id: '', secretKey: '', publicKey: '' },
    deal: { buyer: { id: 'b' }, seller: { id: 's' }, transaction: { id: 't' } } as unknown as Deal,
    milestoneId: 'm',
    disputeId: 'd',
    proof: 'p',
  };
  // For an action either party may take, each party acting is a request of its own; naming the other
  // party in the actor's field (the buyer's id as seller_id) is one of the impostors.
  const cells = actorsOf(op).flatMap((actor) =>
    partyFields(op, requestFor(op, placeholder, actor).body, actor).flatMap((role) => IMPOSTORS.map((impostor) => ({ actor, role, impostor }))),
  );

  beforeAll(async () => {
    client = await newClient();
    stranger = await newClient();
    const s = await stage(op, client);
    const bystander = await newDeal(client, [500]);
    const loner = await newUser(client, 'Loner');
    const foreign = await newDeal(stranger, [500]);
    world = { s, bystander, loner, foreign };
    before = await state(client, s.deal);
    bystanderBefore = await state(client, bystander);
    foreignBefore = await state(stranger, foreign);
  });

  it.each(cells.map(({ actor, role, impostor }) => [`${role}_id`, impostor.who(role), impostor.form, role, impostor, actor] as const))(
    '%s naming %s, by %s: 403 WRONG_PARTY and nothing changes',
    async (field, _who, _form, role, impostor, actor) => {
      const req = requestFor(op, world.s, actor);
      const actingId = impostor.id(world, role);
      const body = { ...req.body, [field]: actingId };
      const res = await call(req.method, req.path, { key: client.secretKey, body });
      refusals++;
      const seen = `${req.method} ${req.path} ${JSON.stringify(body)}\n  → ${res.status} ${clip(JSON.stringify(res.body))}`;
      expect(res.status, seen).toBe(403);
      expect(res.body, seen).toMatchObject({ status: false, code: 'WRONG_PARTY' });
      expect(ErrorEnvelope.safeParse(res.body).success, seen).toBe(true);
      expect(res.body.message, seen).toMatch(new RegExp(`not the ${role}`));
      expect(differences(before, await state(client, world.s.deal)), `${seen}\n  changed the deal`).toEqual([]);
    },
  );

  it("refuses another client's user exactly as it refuses an id that exists nowhere (nothing about the other client is revealed)", async () => {
    for (const role of actorsOf(op)) {
      const req = requestFor(op, world.s, role);
      const field = `${role}_id`;
      const normalised = async (id: string) => {
        const res: ApiResponse = await call(req.method, req.path, { key: client.secretKey, body: { ...req.body, [field]: id } });
        refusals++;
        return JSON.stringify({ status: res.status, body: res.body }).replaceAll(id, '<id>');
      };
      const foreignUser = await normalised(world.foreign[role].id);
      const foreignParty = await normalised(world.foreign.transaction[`${role}_id`]);
      const nobody = await normalised(randomUUID());
      expect(foreignUser, `${field}: another client's ${role} by user id`).toBe(nobody);
      expect(foreignParty, `${field}: another client's ${role} by party id`).toBe(nobody);
    }
    expect(differences(before, await state(client, world.s.deal))).toEqual([]);
  });

  it('after all those refusals the right party succeeds, by user id, and only this deal changes', async () => {
    const req = requestFor(op, world.s);
    const res = await call(req.method, req.path, { key: client.secretKey, body: req.body });
    successes++;
    expect(res.status, `${req.method} ${req.path} ${JSON.stringify(req.body)}\n  → ${res.status} ${clip(JSON.stringify(res.body))}`).toBe(200);
    expectOk(res);
    expect(differences(before, await state(client, world.s.deal)), 'the right party changed nothing').not.toEqual([]);
    expect(differences(bystanderBefore, await state(client, world.bystander)), "another deal of this client changed").toEqual([]);
    expect(differences(foreignBefore, await state(stranger, world.foreign)), "the other client's deal changed").toEqual([]);
    await expectLedgerBalanced();
  });

  if (op.actingParty === 'either') {
    it('either party may act: the seller also succeeds, naming itself in seller_id, and only its deal changes', async () => {
      for (const actor of actorsOf(op).slice(1)) {
        const s = await stage(op, client, actor);
        const sBefore = await state(client, s.deal);
        const req = requestFor(op, s, actor);
        expect(Object.keys(req.body)).toContain(`${actor}_id`);
        const res = await call(req.method, req.path, { key: client.secretKey, body: req.body });
        successes++;
        expect(res.status, `${req.method} ${req.path} ${JSON.stringify(req.body)}\n  → ${res.status} ${clip(JSON.stringify(res.body))}`).toBe(200);
        expectOk(res);
        expect(differences(sBefore, await state(client, s.deal)), `the ${actor} changed nothing`).not.toEqual([]);
        expect(differences(bystanderBefore, await state(client, world.bystander)), 'another deal of this client changed').toEqual([]);
      }
      await expectLedgerBalanced();
    });
  }

  it('the right party also succeeds by party id', async () => {
    for (const actor of actorsOf(op)) {
      const s = await stage(op, client, actor);
      const req = requestFor(op, s, actor);
      const body = { ...req.body };
      for (const role of partyFields(op, body, actor)) body[`${role}_id`] = s.deal.transaction[`${role}_id`];
      const res = await call(req.method, req.path, { key: client.secretKey, body });
      successes++;
      expect(res.status, `${req.method} ${req.path} ${JSON.stringify(body)}\n  → ${res.status} ${clip(JSON.stringify(res.body))}`).toBe(200);
      expectOk(res);
    }
  });

  it('the right party also succeeds by user id in upper case (the same UUID)', async () => {
    for (const actor of actorsOf(op)) {
      const s = await stage(op, client, actor);
      const req = requestFor(op, s, actor);
      const body = { ...req.body };
      for (const role of partyFields(op, body, actor)) body[`${role}_id`] = s.deal[role].id.toUpperCase();
      const res = await call(req.method, req.path, { key: client.secretKey, body });
      successes++;
      expect(res.status, `${req.method} ${req.path} ${JSON.stringify(body)}\n  → ${res.status} ${clip(JSON.stringify(res.body))}`).toBe(200);
      expectOk(res);
    }
  });
});
