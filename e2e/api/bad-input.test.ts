/**
 * Bad input for every operation the API app defines (support/operations.ts) that takes a body, a query, a path id
 * or an upload. The bad values are generated from each operation's zod schema in its JSON Schema form
 * (`z.toJSONSchema(schema, { io: 'input' })`): every field of the request is sent missing, with the
 * wrong type, too long, blank, as a malformed id, enum, URL or date, and every number as a bad
 * amount. Around them go malformed JSON, wrong content types, non-UUID path ids and bad uploads.
 *
 * This file checks the operations list and the inputs that cross operations; each operation's own suites are in
 * bad-input-{deals,disputes,accounts}.test.ts (support/bad-input.ts has the machinery and its rules).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAIRA_AMOUNT } from '@/lib/escrow/money';
import { OPERATIONS } from './support/operations';
import { baseUrl, ledgerIntegrity, newClient, uploadProof, type ApiResponse, type TestClient } from './support/api';
import {
  BAD_INPUT_PARTS,
  bodyCases,
  bodyOf,
  expectRefused,
  expectUnchanged,
  fieldsOf,
  http,
  jsonBodyOps,
  jsonSchemaOf,
  partOf,
  pathIdOps,
  pathOf,
  placeholderStaged,
  queryCases,
  queryOf,
  reportBadInputCounts,
  sendJson,
  show,
  stage,
  stateOf,
  targetOps,
  validRequest,
  VALIDATION,
  type Body,
  type Staged,
} from './support/bad-input';

reportBadInputCounts('bad-input.test.ts');

describe('the operations list', () => {
  it('has a recipe here for every operation that takes a body, a query, a path id or an upload', async () => {
    expect(jsonBodyOps.length).toBeGreaterThanOrEqual(15);
    for (const op of targetOps) {
      const s = placeholderStaged(op, baseUrl());
      expect(() => validRequest(s), op.id).not.toThrow();
      if (op.body) expect(bodyCases(op, bodyOf(s), ['missing', 'type', 'text', 'amount']).length, op.id).toBeGreaterThan(0);
      if (op.query) expect(queryCases(op, queryOf(s)!).length, op.id).toBeGreaterThan(0);
    }
  });

  it('puts each of them in exactly one bad-input file, and every file has some', () => {
    const counts = new Map(Object.keys(BAD_INPUT_PARTS).map((part) => [part, 0]));
    for (const op of targetOps) counts.set(partOf(op), counts.get(partOf(op))! + 1);
    for (const [part, count] of counts) expect(count, `bad-input-${part}.test.ts`).toBeGreaterThan(5);
    expect([...counts.values()].reduce((a, b) => a + b)).toBe(targetOps.length);
  });
});

describe('path ids with a broken percent-escape', () => {
  it.each(pathIdOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s: 400 VALIDATION_ERROR, never a 500', async (_name, op) => {
    const client = await newClient();
    const s = await stage(op, client);
    const before = await stateOf(s);
    const req = validRequest(s);
    for (const bad of ['%zz', '%', 'abc%', '%E0%A4%A', '%FF']) {
      const badReq = { ...req, path: pathOf(s, bad) };
      const res = await sendJson(badReq);
      expectRefused(op, res, `path id ${bad}: ${show(badReq)}`, VALIDATION());
    }
    await expectUnchanged(s, before);
  });
});

describe('proof URLs that are not files of this client', () => {
  const isProofField = (name: string) => /^proofs_/.test(name) || name === 'files';
  const proofOps = OPERATIONS.filter((op) => op.body && fieldsOf(jsonSchemaOf(op.body), {}).some((f) => isProofField(f.name)));
  const cases: Array<[string, (s: Staged, othersFile: string) => string[]]> = [
    ["this client's file id behind another host, over plain http", (s) => [`http://attacker.example/v1/files/${s.fileId}`]],
    ['an unknown file id on this host', () => [`${baseUrl()}/v1/files/${randomUUID()}`]],
    ["another client's file", (_s, othersFile) => [othersFile]],
    ['one good proof and one unknown file', (s) => [s.proof, `${baseUrl()}/v1/files/${randomUUID()}`]],
  ];

  it('covers deliver, reject and evidence', () => {
    expect(proofOps.map((op) => op.id).sort()).toEqual(['deliverMilestone', 'rejectDelivery', 'submitEvidence']);
  });

  let other: TestClient;
  let othersFile: string;
  beforeAll(async () => {
    other = await newClient();
    othersFile = await uploadProof(other);
  });

  it.each(proofOps.flatMap((op) => cases.map(([label, urls]) => [`${op.method.toUpperCase()} ${op.path}`, label, op, urls] as const)))(
    '%s: %s is 400 naming the proof field, and changes nothing',
    async (_name, label, op, urls) => {
      const s = await stage(op, await newClient());
      const before = await stateOf(s);
      const req = validRequest(s);
      const proofField = Object.keys(req.body!).find(isProofField)!;
      const bad = { ...req, body: { ...req.body, [proofField]: urls(s, othersFile) } };
      const res = await sendJson(bad);
      expectRefused(op, res, `${label}: ${show(bad)}`, VALIDATION(proofField));
      await expectUnchanged(s, before);
    },
  );
});

describe('operations either party may take: the body names exactly one of buyer_id and seller_id', () => {
  const eitherOps = OPERATIONS.filter((op) => op.actingParty === 'either');

  it('covers escalation, evidence and its window, ending a transaction and rating it', () => {
    expect(eitherOps.map((op) => op.id).sort()).toEqual(
      ['approveCancellation', 'cancelTransaction', 'declineCancellation', 'escalateDispute', 'extendEvidenceWindow', 'rateTransaction', 'submitEvidence', 'terminateTransaction'].sort(),
    );
  });

  it.each(eitherOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s: neither or both (by user id or party id, the same person twice) is 400 naming buyer_id, and changes nothing',
    async (_name, op) => {
      const s = await stage(op, await newClient());
      const before = await stateOf(s);
      const req = validRequest(s);
      const { buyer_id: _buyer, seller_id: _seller, ...rest } = req.body!;
      const { buyer, seller, transaction } = s.deal;
      const cases: Array<[string, Body]> = [
        ['neither buyer_id nor seller_id', rest],
        ['both, each naming its own party', { ...rest, buyer_id: buyer.id, seller_id: seller.id }],
        ['both, by party id', { ...rest, buyer_id: transaction.buyer_id, seller_id: transaction.seller_id }],
        ['both naming the buyer', { ...rest, buyer_id: buyer.id, seller_id: buyer.id }],
        ['both naming the seller', { ...rest, buyer_id: seller.id, seller_id: seller.id }],
      ];
      for (const [label, body] of cases) {
        const bad = { ...req, body };
        expectRefused(op, await sendJson(bad), `${label}: ${show(bad)}`, VALIDATION('buyer_id'));
      }
      await expectUnchanged(s, before);
    },
  );
});

describe('POST /v1/transactions naming one person as both buyer and seller', () => {
  it('is 400 naming seller_id whether the ids are the same, one is the party id of the other, or differ only in letter case', async () => {
    const op = OPERATIONS.find((o) => o.id === 'createTransaction')!;
    const s = await stage(op, await newClient());
    const before = await stateOf(s);
    const req = validRequest(s);
    const userId = s.deal.buyer.id;
    const partyId: string = s.deal.transaction.buyer_id;
    for (const [label, buyer, seller] of [
      ['the same user id twice', userId, userId],
      ['the user id and the same user’s party id', userId, partyId],
      ['the party id and the same user’s user id', partyId, userId],
      ['the user id, then the same user id in upper case', userId, userId.toUpperCase()],
    ] as const) {
      const bad = { ...req, body: { ...req.body, buyer_id: buyer, seller_id: seller } };
      expectRefused(op, await sendJson(bad), `${label}: ${show(bad)}`, VALIDATION('seller_id'));
    }
    await expectUnchanged(s, before);
  });
});

describe('amounts that add up past what a balance can count exactly', () => {
  /** docs/decisions.md §4: money is integer kobo; a JavaScript number counts kobo exactly only up to 2^53. */
  it('a wallet funded past 2^53 kobo with amounts each within the limit either refuses the funding (4xx) or still counts every kobo', async () => {
    const op = OPERATIONS.find((o) => o.id === 'fundWallet')!;
    const client = await newClient();
    const s = await stage(op, client);
    const userId = s.deal.seller.id;
    const fund = (amount: number) => http('POST', '/v1/wallets/fund', { key: client.secretKey, body: JSON.stringify({ user_id: userId, amount }), contentType: 'application/json' });
    const nairaText = (kobo: bigint) => `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}`;
    const LARGEST = MAX_NAIRA_AMOUNT; // the largest single amount the API takes (₦100 bn)
    let expectedKobo = 0n;
    let refusedAt: string | undefined;
    /** Concurrent fundings answer in any order, so only a funding sent alone is checked against its own balance. */
    const record = (res: ApiResponse, amount: number, label: string, alone = true) => {
      if (res.status === 200) {
        expectedKobo += BigInt(Math.round(amount * 100));
        if (alone) {
          expect.soft(res.body.data.balance, `${label}: answered 200 with a balance that should be ₦${nairaText(expectedKobo)} (${expectedKobo} kobo), compared as JSON numbers`).toBe(Number(nairaText(expectedKobo)));
        }
      } else {
        refusedAt ??= label;
        expectRefused(op, res, `${label}: POST /v1/wallets/fund {"user_id":"${userId}","amount":${amount}}`, { status: res.status < 500 ? res.status : 400, codes: [String(res.body?.code ?? 'none')] });
      }
    };
    // Up to just under 2^53 kobo: 900 fundings of ₦100 bn, 25 at a time.
    const safeSteps = Math.floor(Number.MAX_SAFE_INTEGER / 100 / LARGEST);
    for (let done = 0; done < safeSteps && !refusedAt; done += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, safeSteps - done) }, () => fund(LARGEST)));
      batch.forEach((res, i) => record(res, LARGEST, `funding ${done + i + 1} of ₦100 bn`, false));
    }
    // Across 2^53 kobo, then kobo by kobo: each either refused or counted exactly.
    for (const [label, amount] of [
      ['the funding that crosses 2^53 kobo', LARGEST],
      ['₦0.01 more', 0.01],
      ['another ₦0.01', 0.01],
      ['a third ₦0.01', 0.01],
    ] as const) {
      record(await fund(amount), amount, label);
    }
    const wallet = await http('GET', `/v1/wallets/${userId}`, { key: client.secretKey });
    expect(wallet.body.data.balance, `GET /v1/wallets/${userId}: the wallet should hold ₦${nairaText(expectedKobo)} (${expectedKobo} kobo)${refusedAt ? `, refused from ${refusedAt}` : ''}`).toBe(
      Number(nairaText(expectedKobo)),
    );
    const ledger = await ledgerIntegrity();
    expect(ledger).toMatchObject({ balanced: true, ledger_sum_kobo: 0 });
  }, 180_000);
});
