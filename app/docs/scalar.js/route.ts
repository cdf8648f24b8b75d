import { SCALAR_SCRIPT } from '../scalar-script';

/** Scalar's bundle for /docs; its URL changes with its content (scalar-script.ts), so it may be kept for a year. */
export function GET() {
  return new Response(new Uint8Array(SCALAR_SCRIPT), {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    },
  });
}
