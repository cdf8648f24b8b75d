import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support';

/**
 * The client secret keys the dashboard calls the API with must never reach a browser. Here: not in the client bundles of
 * the build. Every page, RSC payload and data response, in every role, with two clients' keys held, is hunted in the
 * same crawl that checks each page's accessibility and width (every-page.spec.ts).
 */
const secretKey = () => process.env.DASHBOARD_DEMO_SECRET_KEY as string;
const STATIC = path.resolve(__dirname, '../../.next/static');

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

test('no file under .next/static contains the secret key', () => {
  expect(secretKey()).toMatch(/^sk_test_/);
  const needle = Buffer.from(secretKey());
  let scanned = 0;
  for (const file of files(STATIC)) {
    scanned++;
    expect(fs.readFileSync(file).includes(needle), `${path.relative(STATIC, file)} contains the secret key`).toBe(false);
  }
  expect(scanned).toBeGreaterThan(10);
});
