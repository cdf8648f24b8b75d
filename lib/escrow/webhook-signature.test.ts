import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, parseSignatureHeader, signatureHeader, SIGNATURE_TOLERANCE_SECONDS, verifySignature } from './webhook-signature';

const SECRET = 'whsec_current_secret_for_tests';
const OLD = 'whsec_previous_secret_for_tests';
const BODY = '{"id":"4f1c","type":"milestone.funded","data":{"amount":1000}}';
const T = 1_800_000_000;

describe('computeSignature', () => {
  it('is the hex HMAC-SHA256 of "<t>.<body>" keyed by the secret', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(computeSignature(SECRET, T, BODY)).toBe(expected);
    expect(computeSignature(SECRET, T, BODY)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the secret, the timestamp and every byte of the body', () => {
    const base = computeSignature(SECRET, T, BODY);
    expect(computeSignature(OLD, T, BODY)).not.toBe(base);
    expect(computeSignature(SECRET, T + 1, BODY)).not.toBe(base);
    expect(computeSignature(SECRET, T, BODY.replace('1000', '1001'))).not.toBe(base);
    expect(computeSignature(SECRET, T, `${BODY} `)).not.toBe(base);
  });

  it('signs the raw UTF-8 bytes (naira sign, accents)', () => {
    const body = '{"message":"₦1,000 paid to Adébáyọ̀"}';
    const expected = createHmac('sha256', SECRET).update(Buffer.from(`${T}.${body}`, 'utf8')).digest('hex');
    expect(computeSignature(SECRET, T, body)).toBe(expected);
  });
});

describe('signatureHeader', () => {
  it('is t=<seconds>,v1=<sig> with one secret', () => {
    expect(signatureHeader({ secrets: [SECRET], timestamp: T, body: BODY })).toBe(`t=${T},v1=${computeSignature(SECRET, T, BODY)}`);
  });

  it('carries one v1= per secret during a rotation, the current one first', () => {
    const header = signatureHeader({ secrets: [SECRET, OLD], timestamp: T, body: BODY });
    expect(header).toBe(`t=${T},v1=${computeSignature(SECRET, T, BODY)},v1=${computeSignature(OLD, T, BODY)}`);
  });

  it('refuses no secret and a timestamp that is not whole seconds', () => {
    expect(() => signatureHeader({ secrets: [], timestamp: T, body: BODY })).toThrow();
    expect(() => signatureHeader({ secrets: [SECRET], timestamp: 1.5, body: BODY })).toThrow();
    expect(() => signatureHeader({ secrets: [SECRET], timestamp: -1, body: BODY })).toThrow();
  });
});

describe('parseSignatureHeader', () => {
  it('reads the timestamp and every v1 signature, tolerating spaces and unknown schemes', () => {
    const a = 'a'.repeat(64);
    const b = 'B'.repeat(64);
    expect(parseSignatureHeader(`t=${T}, v1=${a} ,v0=old,v2=${'c'.repeat(64)},v1=${b}`)).toEqual({ timestamp: T, signatures: [a, 'b'.repeat(64)] });
  });

  it('is null without a timestamp, without a signature, with two timestamps or a bad one', () => {
    const sig = 'a'.repeat(64);
    for (const header of ['', `v1=${sig}`, `t=${T}`, `t=${T},v1=short`, `t=${T},t=${T},v1=${sig}`, `t=abc,v1=${sig}`, `t=-5,v1=${sig}`, `t=1.5,v1=${sig}`, 'garbage']) {
      expect(parseSignatureHeader(header), header).toBeNull();
    }
  });
});

describe('verifySignature', () => {
  const header = signatureHeader({ secrets: [SECRET], timestamp: T, body: BODY });

  it('accepts the signature made with the secret, within the tolerance either side', () => {
    expect(verifySignature({ header, body: BODY, secrets: SECRET, nowSeconds: T })).toEqual({ ok: true, timestamp: T });
    expect(verifySignature({ header, body: BODY, secrets: SECRET, nowSeconds: T + SIGNATURE_TOLERANCE_SECONDS }).ok).toBe(true);
    expect(verifySignature({ header, body: BODY, secrets: SECRET, nowSeconds: T - SIGNATURE_TOLERANCE_SECONDS }).ok).toBe(true);
  });

  it('refuses a timestamp more than 300 s away (a replayed or post-dated delivery)', () => {
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
    expect(verifySignature({ header, body: BODY, secrets: SECRET, nowSeconds: T + 301 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifySignature({ header, body: BODY, secrets: SECRET, nowSeconds: T - 301 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifySignature({ header, body: BODY, secrets: SECRET, nowSeconds: T + 30, toleranceSeconds: 10 }).ok).toBe(false);
  });

  it('refuses another secret, a changed body and a changed timestamp', () => {
    expect(verifySignature({ header, body: BODY, secrets: OLD, nowSeconds: T })).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verifySignature({ header, body: BODY.replace('1000', '9000'), secrets: SECRET, nowSeconds: T }).ok).toBe(false);
    const moved = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(verifySignature({ header: moved, body: BODY, secrets: SECRET, nowSeconds: T })).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('refuses a missing or malformed header', () => {
    for (const bad of [undefined, null, '', 'v1=abc', `t=${T}`]) {
      expect(verifySignature({ header: bad, body: BODY, secrets: SECRET, nowSeconds: T })).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('during a rotation, a receiver holding either secret verifies the same delivery', () => {
    const both = signatureHeader({ secrets: [SECRET, OLD], timestamp: T, body: BODY });
    expect(verifySignature({ header: both, body: BODY, secrets: SECRET, nowSeconds: T }).ok).toBe(true);
    expect(verifySignature({ header: both, body: BODY, secrets: OLD, nowSeconds: T }).ok).toBe(true);
    expect(verifySignature({ header: both, body: BODY, secrets: 'whsec_someone_else', nowSeconds: T }).ok).toBe(false);
  });

  it('accepts any of several secrets the receiver holds', () => {
    expect(verifySignature({ header, body: BODY, secrets: ['whsec_new_one_not_live_yet', SECRET], nowSeconds: T }).ok).toBe(true);
    expect(verifySignature({ header, body: BODY, secrets: [], nowSeconds: T }).ok).toBe(false);
  });
});
