import { DEMO, expect, test } from './support';

/**
 * After sign-in the browser goes to `?next=`, which must be a path of this origin however it is spelled:
 * browsers read `/\host` and `/<tab>/host` as `//host`, another origin.
 */
const ESCAPES = ['/%5Cexample.invalid/phish', '/%09/example.invalid/phish', '/%5C%5Cexample.invalid', '//example.invalid/phish', 'https://example.invalid/phish'];

for (const next of ESCAPES) {
  test(`sign-in with next=${next} stays on this origin`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    let left = false;
    // Another origin would not resolve: answer it here, so the test sees the navigation land.
    await page.context().route(
      (url) => url.hostname === 'example.invalid',
      (route) => {
        left = true;
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Elsewhere</h1>' });
      },
    );
    await page.goto(`/login?next=${next}`);
    await page.getByLabel('Email').fill(DEMO.buyer.email);
    await page.getByLabel('Password').fill(DEMO.buyer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login' || url.origin !== origin);
    await page.waitForLoadState('load');
    expect(left).toBe(false);
    expect(new URL(page.url()).origin).toBe(origin);
  });
}
