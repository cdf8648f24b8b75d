import { api, DEMO, expect, signedInPage, test } from './support';

/**
 * A proof is someone's upload: /proofs/<id> answers with its own sandboxing policy, and only that one (the
 * pages' policy, which allows this origin's scripts, must not replace it).
 */
const PROOF_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

test('a proof file is served with exactly its own sandboxing Content-Security-Policy', async ({ browser }) => {
  const demoKey = process.env.DASHBOARD_DEMO_SECRET_KEY as string;
  const list = await api<{ transactions: Array<{ id: string }> }>(demoKey, 'GET', '/v1/transactions?page=1&limit=100');
  let fileId: string | undefined;
  for (const { id } of list.transactions) {
    const tx = await api<{ milestones: Array<{ proofs_of_completion: string[] }> }>(demoKey, 'GET', `/v1/transactions/${id}`);
    const url = tx.milestones.flatMap((m) => m.proofs_of_completion).find((u) => u.includes('/v1/files/'));
    if (url) {
      fileId = url.split('/v1/files/')[1]!.split(/[/?#]/)[0];
      break;
    }
  }
  expect(fileId, 'a demo proof uploaded to /v1/files').toBeDefined();
  const admin = await signedInPage(browser, DEMO.admin);
  const response = await admin.goto(`/proofs/${fileId}`);
  expect(response?.status()).toBe(200);
  const policies = (await response!.headersArray()).filter((h) => h.name.toLowerCase() === 'content-security-policy').map((h) => h.value);
  expect(policies).toEqual([PROOF_CSP]);
});
