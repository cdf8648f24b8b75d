/**
 * Headers every response carries, pages and API alike: no sniffing, no framing, no referrer leaks.
 * next.config.ts puts them on what Next serves; the API app (middleware/request-context.ts) on /v1,
 * which the production server hands to the app without Next.
 *
 * No `server-only` here: next.config.ts reads it at build and start.
 */
export const SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
  { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' },
];
