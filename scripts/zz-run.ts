import { startTestServer } from '/work/wt/api/e2e/support/test-server';
(async () => {
  const s = await startTestServer();
  try {
    const r = await fetch(`${s.baseUrl}/v1/operator/clients`, { method: 'POST', headers: { authorization: s.operatorKey, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x' }) });
    console.log(r.status, [...r.headers].join(' | '), await r.text());
  } finally {
    await new Promise((r) => setTimeout(r, 300));
    console.log(s.output().split('\n').filter((l) => !l.includes('"msg":"request"')).slice(-30).join('\n'));
    await s.stop();
  }
})();
