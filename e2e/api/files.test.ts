import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { FileRecord, MilestoneRecord } from '@/lib/contracts/records';
import { baseUrl, call, expectError, expectOk, newClient, newDeal, operatorKey, snapshot, type ApiResponse, type TestClient } from './support/api';

const TEN_MB = 10 * 1024 * 1024;

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** A 1×1 baseline JFIF JPEG. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
/** A one-page PDF. */
const PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
  'latin1',
);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
/** The first bytes of a Linux executable. */
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(56)]);
/** The first bytes of a Windows executable. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('This program cannot be run in DOS mode.')]);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function upload(
  client: TestClient | null,
  bytes: Buffer | null,
  opts: { type?: string; filename?: string; field?: string } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  if (bytes) form.append(opts.field ?? 'file', new Blob([new Uint8Array(bytes)], opts.type === undefined ? {} : { type: opts.type }), opts.filename ?? 'proof.bin');
  else form.append('note', 'no file here');
  const headers: Record<string, string> = client ? { authorization: client.secretKey } : {};
  const res = await fetch(`${baseUrl()}/v1/files`, { method: 'POST', headers, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body, headers: res.headers };
}

async function read(url: string, key?: string) {
  const res = await fetch(url, { headers: key ? { authorization: key } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

function expectUnsupported(res: ApiResponse) {
  expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  ErrorEnvelope.parse(res.body);
}

/** A deal whose first milestone is funded and awaiting delivery. */
async function fundedDeal(client: TestClient) {
  const deal = await newDeal(client, [1000], { walletFunds: 1000 });
  const milestoneId = deal.milestoneIds[0]!;
  expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
  return { ...deal, milestoneId };
}

describe('POST /v1/files: accepted proofs', () => {
  it.each([
    { label: 'PNG', bytes: PNG, type: 'image/png', filename: 'receipt.png' },
    { label: 'JPEG', bytes: JPEG, type: 'image/jpeg', filename: 'parcel.jpg' },
    { label: 'PDF', bytes: PDF, type: 'application/pdf', filename: 'waybill.pdf' },
  ])('stores a $label and serves the same bytes back', async ({ bytes, type, filename }) => {
    const client = await newClient();
    const res = await upload(client, bytes, { type, filename });
    const file = FileRecord.parse(expectOk(res));
    expect(file.content_type).toBe(type);
    expect(file.size).toBe(bytes.length);
    expect(file.sha256).toBe(sha256(bytes));
    expect(file.filename).toBe(filename);
    expect(new URL(file.url).pathname).toBe(`/v1/files/${file.id}`);

    const got = await read(`${baseUrl()}/v1/files/${file.id}`, client.secretKey);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe(type);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.bytes.equals(bytes)).toBe(true);
  });

  it('returns a url on the address the client called, so the integrator can fetch it', async () => {
    const client = await newClient();
    const file = FileRecord.parse(expectOk(await upload(client, PNG, { type: 'image/png' })));
    expect(file.url).toBe(`${baseUrl()}/v1/files/${file.id}`);
  });

  it('accepts Bearer on the read as well', async () => {
    const client = await newClient();
    const file = expectOk(await upload(client, PNG, { type: 'image/png' }));
    const got = await read(file.url, `Bearer ${client.secretKey}`);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(PNG)).toBe(true);
  });

  it('stores and serves a JPEG sent as image/png under its real type (same kind of file)', async () => {
    const client = await newClient();
    const file = FileRecord.parse(expectOk(await upload(client, JPEG, { type: 'image/png', filename: 'photo.png' })));
    expect(file.content_type).toBe('image/jpeg');
    expect((await read(file.url, client.secretKey)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('works out the type from the content when the client declares none', async () => {
    const client = await newClient();
    const file = FileRecord.parse(expectOk(await upload(client, PDF, { type: 'application/octet-stream', filename: 'scan' })));
    expect(file.content_type).toBe('application/pdf');
  });

  it('accepts a file of exactly 10 MB', async () => {
    const client = await newClient();
    const bytes = Buffer.concat([PNG, Buffer.alloc(TEN_MB - PNG.length, 0x41)]);
    const file = FileRecord.parse(expectOk(await upload(client, bytes, { type: 'image/png' })));
    expect(file.size).toBe(TEN_MB);
    expect(file.sha256).toBe(sha256(bytes));
  });

  it('gives each upload its own id, even for identical bytes', async () => {
    const client = await newClient();
    const a = expectOk(await upload(client, PNG, { type: 'image/png' }));
    const b = expectOk(await upload(client, PNG, { type: 'image/png' }));
    expect(a.id).not.toBe(b.id);
    expect(a.sha256).toBe(b.sha256);
  });
});

describe('GET /v1/files/{id}: only the owner reads a file', () => {
  it('is 401 without a key', async () => {
    const client = await newClient();
    const file = expectOk(await upload(client, PNG, { type: 'image/png' }));
    const res = await call('GET', `/v1/files/${file.id}`);
    expectError(res, 401, 'UNAUTHORIZED');
    expect(JSON.stringify(res.body)).not.toContain('PNG');
  });

  it("is 404 with another client's key, as for a file that does not exist", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const file = expectOk(await upload(owner, PNG, { type: 'image/png' }));
    const unknownId = randomUUID();
    const foreign = expectError(await call('GET', `/v1/files/${file.id}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    const unknown = expectError(await call('GET', `/v1/files/${unknownId}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expect(foreign.message.replace(file.id, '<id>')).toBe(unknown.message.replace(unknownId, '<id>'));
    expect((await read(file.url, owner.secretKey)).status).toBe(200);
  });

  it('is 400 for a non-UUID id', async () => {
    const client = await newClient();
    expectError(await call('GET', '/v1/files/proof.png', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
  });
});

describe("GET /v1/operator/files/{id}: the dispute team reads any client's file", () => {
  it("answers each client's bytes under their stored type, with the operator key raw or as Bearer", async () => {
    const [a, b] = [await newClient(), await newClient()];
    const png = FileRecord.parse(expectOk(await upload(a, PNG, { type: 'image/png', filename: 'parcel photo.png' })));
    const pdf = FileRecord.parse(expectOk(await upload(b, PDF, { type: 'application/pdf', filename: 'waybill.pdf' })));
    for (const [file, bytes, type] of [[png, PNG, 'image/png'], [pdf, PDF, 'application/pdf']] as const) {
      for (const key of [operatorKey(), `Bearer ${operatorKey()}`]) {
        const got = await read(`${baseUrl()}/v1/operator/files/${file.id}`, key);
        expect(got.status).toBe(200);
        expect(got.headers.get('content-type')).toBe(type);
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
        expect(got.bytes.equals(bytes)).toBe(true);
      }
    }
    expect((await read(`${baseUrl()}/v1/operator/files/${png.id}`, operatorKey())).headers.get('content-disposition')).toBe('inline; filename="parcel_photo.png"');
  });

  it("is 401 for a client's key, even the owner's, and without a key", async () => {
    const owner = await newClient();
    const file = expectOk(await upload(owner, PNG, { type: 'image/png' }));
    for (const key of [owner.secretKey, `Bearer ${owner.secretKey}`, owner.publicKey, undefined]) {
      const res = await call('GET', `/v1/operator/files/${file.id}`, { key });
      expectError(res, 401, 'UNAUTHORIZED');
      ErrorEnvelope.parse(res.body);
    }
  });

  it('is 404 NOT_FOUND for an id no client stored', async () => {
    const res = await call('GET', `/v1/operator/files/${randomUUID()}`, { key: operatorKey() });
    expectError(res, 404, 'NOT_FOUND');
    ErrorEnvelope.parse(res.body);
  });

  it('is 400 VALIDATION_ERROR naming file_id for an id that is not a UUID', async () => {
    for (const bad of ['proof.png', '1', `${randomUUID()}0`]) {
      const res = expectError(await call('GET', `/v1/operator/files/${bad}`, { key: operatorKey() }), 400, 'VALIDATION_ERROR');
      expect(res.errors).toEqual([{ field: 'file_id', message: 'must be a UUID' }]);
    }
  });
});

describe('POST /v1/files: refused uploads', () => {
  it('is 401 without a key', async () => {
    expectError(await upload(null, PNG, { type: 'image/png' }), 401, 'UNAUTHORIZED');
  });

  it.each([
    { label: 'an HTML page sent as image/png', bytes: HTML, type: 'image/png', filename: 'photo.png' },
    { label: 'an HTML page sent as text/html', bytes: HTML, type: 'text/html', filename: 'page.html' },
    { label: 'an SVG with a script sent as image/svg+xml', bytes: SVG, type: 'image/svg+xml', filename: 'logo.svg' },
    { label: 'a Linux executable (ELF) sent as image/png', bytes: ELF, type: 'image/png', filename: 'photo.png' },
    { label: 'a Windows executable (MZ) sent as image/png', bytes: EXE, type: 'image/png', filename: 'photo.png' },
    { label: 'a Windows executable with no declared type', bytes: EXE, type: 'application/octet-stream', filename: 'setup.exe' },
    { label: 'plain text sent as application/pdf', bytes: Buffer.from('just some text, not a PDF'), type: 'application/pdf', filename: 'doc.pdf' },
    { label: 'a JPEG declared as application/pdf', bytes: JPEG, type: 'application/pdf', filename: 'doc.pdf' },
    { label: 'a PDF declared as image/png', bytes: PDF, type: 'image/png', filename: 'photo.png' },
    { label: 'a PNG declared as video/mp4', bytes: PNG, type: 'video/mp4', filename: 'clip.mp4' },
  ])('refuses $label with 415', async ({ bytes, type, filename }) => {
    const client = await newClient();
    expectUnsupported(await upload(client, bytes, { type, filename }));
  });

  it('refuses a JSON body instead of multipart with 415', async () => {
    const client = await newClient();
    expectUnsupported(await call('POST', '/v1/files', { key: client.secretKey, body: { file: PNG.toString('base64'), filename: 'proof.png' } }));
  });

  it('refuses raw bytes sent as image/png (not multipart) with 415', async () => {
    const client = await newClient();
    expectUnsupported(await call('POST', '/v1/files', { key: client.secretKey, rawBody: new Uint8Array(PNG), headers: { 'content-type': 'image/png' } }));
  });

  it('refuses a multipart body without a "file" field with 400 naming file (and the unknown field it had instead)', async () => {
    const client = await newClient();
    const res = await upload(client, null);
    const error = expectError(res, 400, 'UNKNOWN_FIELD');
    ErrorEnvelope.parse(res.body);
    expect((error.errors ?? []).map((e) => e.field)).toEqual(['note', 'file']);
  });

  it('refuses the file under another field name with 400 naming both', async () => {
    const client = await newClient();
    const res = await upload(client, PNG, { type: 'image/png', field: 'proof' });
    expect((expectError(res, 400, 'UNKNOWN_FIELD').errors ?? []).map((e) => e.field)).toEqual(['proof', 'file']);
  });

  it('refuses a "file" field that is text, not a file, with 400', async () => {
    const client = await newClient();
    const form = new FormData();
    form.append('file', 'iVBORw0KGgo=');
    const res = await fetch(`${baseUrl()}/v1/files`, { method: 'POST', headers: { authorization: client.secretKey }, body: form });
    const body = await res.json();
    expectError({ status: res.status, body, headers: res.headers }, 400, 'VALIDATION_ERROR');
  });

  it('refuses an empty file with 400', async () => {
    const client = await newClient();
    expectError(await upload(client, Buffer.alloc(0), { type: 'image/png' }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a file one byte over 10 MB with 413', async () => {
    const client = await newClient();
    const bytes = Buffer.concat([PNG, Buffer.alloc(TEN_MB + 1 - PNG.length, 0x41)]);
    const res = await upload(client, bytes, { type: 'image/png' });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    ErrorEnvelope.parse(res.body);
  });

  it('refuses a 25 MB file with 413', async () => {
    const client = await newClient();
    const res = await upload(client, Buffer.concat([PNG, Buffer.alloc(25 * 1024 * 1024, 0x41)]), { type: 'image/png' });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('uploaded files as proofs', () => {
  it('an uploaded file works as proof of completion in deliver', async () => {
    const client = await newClient();
    const deal = await fundedDeal(client);
    const png = expectOk(await upload(client, PNG, { type: 'image/png' }));
    const pdf = expectOk(await upload(client, PDF, { type: 'application/pdf' }));
    const res = await call('POST', `/v1/milestones/${deal.milestoneId}/deliver`, {
      key: client.secretKey,
      body: { seller_id: deal.seller.id, proofs_of_completion: [png.url, pdf.url] },
    });
    const milestone = MilestoneRecord.parse(expectOk(res));
    expect(milestone.status).toBe('UNDER_INSPECTION');
    expect(milestone.is_delivered).toBe(true);
    expect(milestone.proofs_of_completion).toEqual([png.url, pdf.url]);

    // The buyer can fetch the proofs the milestone points at.
    for (const [url, bytes] of [[png.url, PNG], [pdf.url, PDF]] as const) {
      const got = await read(url, client.secretKey);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(bytes)).toBe(true);
    }
  });

  it("refuses another client's file as proof of completion with 400, and nothing changes", async () => {
    const client = await newClient();
    const stranger = await newClient();
    const deal = await fundedDeal(client);
    const foreign = expectOk(await upload(stranger, PNG, { type: 'image/png' }));
    const before = await snapshot(client, deal);

    const res = await call('POST', `/v1/milestones/${deal.milestoneId}/deliver`, {
      key: client.secretKey,
      body: { seller_id: deal.seller.id, proofs_of_completion: [foreign.url] },
    });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect((error.errors ?? []).map((e) => e.field)).toContain('proofs_of_completion');
    expect(await snapshot(client, deal)).toBe(before);
    const milestone = expectOk(await call('GET', `/v1/milestones/${deal.milestoneId}`, { key: client.secretKey }));
    expect(milestone.status).toBe('IN_PROGRESS');
    expect(milestone.proofs_of_completion).toEqual([]);
  });

  it("refuses a proof list that mixes an own file with another client's file, and nothing changes", async () => {
    const client = await newClient();
    const stranger = await newClient();
    const deal = await fundedDeal(client);
    const mine = expectOk(await upload(client, PNG, { type: 'image/png' }));
    const foreign = expectOk(await upload(stranger, PNG, { type: 'image/png' }));
    const before = await snapshot(client, deal);
    const res = await call('POST', `/v1/milestones/${deal.milestoneId}/deliver`, {
      key: client.secretKey,
      body: { seller_id: deal.seller.id, proofs_of_completion: [mine.url, foreign.url] },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(await snapshot(client, deal)).toBe(before);
  });

  it('refuses a /v1/files URL of a file that was never uploaded with 400, and nothing changes', async () => {
    const client = await newClient();
    const deal = await fundedDeal(client);
    const before = await snapshot(client, deal);
    const res = await call('POST', `/v1/milestones/${deal.milestoneId}/deliver`, {
      key: client.secretKey,
      body: { seller_id: deal.seller.id, proofs_of_completion: [`${baseUrl()}/v1/files/${randomUUID()}`] },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(await snapshot(client, deal)).toBe(before);
  });

  it("refuses another client's file as proof of return when the buyer rejects, and nothing changes", async () => {
    const client = await newClient();
    const stranger = await newClient();
    const deal = await fundedDeal(client);
    const mine = expectOk(await upload(client, JPEG, { type: 'image/jpeg' }));
    expectOk(await call('POST', `/v1/milestones/${deal.milestoneId}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [mine.url] } }));
    const foreign = expectOk(await upload(stranger, PDF, { type: 'application/pdf' }));
    const before = await snapshot(client, deal);

    const res = await call('POST', `/v1/milestones/${deal.milestoneId}/reject`, {
      key: client.secretKey,
      body: { buyer_id: deal.buyer.id, rejection_reason: 'Wrong item', proofs_of_return: [foreign.url] },
    });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect((error.errors ?? []).map((e) => e.field)).toContain('proofs_of_return');
    expect(await snapshot(client, deal)).toBe(before);
  });
});
