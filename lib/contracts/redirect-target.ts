/** Stands in for this app's origin where the real one is not known (the server behind a proxy). */
const PLACEHOLDER_ORIGIN = 'http://escrow-desk.invalid';

/**
 * Where to send someone after sign-in: a path of this origin, or `fallback`. Judged by parsing the target
 * as the browser will (it reads `/\host` and `/<tab>/host` as another host), never by its first characters.
 */
export function sameOriginPath(target: string | null | undefined, fallback = '/dashboard', origin = PLACEHOLDER_ORIGIN): string {
  if (!target) return fallback;
  const base = new URL(origin);
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path that normalised to `//host` is another origin again once handed to the browser.
  return path.startsWith('//') ? fallback : path;
}

/** Set by proxy.ts on dashboard pages: the path asked for, for the sign-in page to bring the person back to. */
export const PAGE_PATH_HEADER = 'x-escrow-page-path';
