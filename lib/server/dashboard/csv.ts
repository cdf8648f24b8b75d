import 'server-only';
import { csvLine, type CsvCell } from '../http/csv';
import { json } from './route-json';

/** Enough for any marketplace's list, and a bound on one download's work. */
const MAX_PAGES = 500;

type Page<T> = { ok: true; rows: T[]; hasNextPage: boolean } | { ok: false; message: string };

/**
 * A list as a CSV download: the header row, then every page of rows the API answers for the same
 * filters, streamed page by page. The first page is read before answering, so a refusal is a JSON error
 * rather than a broken file.
 */
export async function csvResponse<T>(filename: string, header: string[], row: (item: T) => CsvCell[], page: (n: number) => Promise<Page<T>>): Promise<Response> {
  const first = await page(1);
  if (!first.ok) return json(502, { message: first.message });
  const encoder = new TextEncoder();
  let next: Page<T> = first;
  let n = 1;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(header)));
    },
    async pull(controller) {
      if (!next.ok) {
        controller.error(new Error(next.message));
        return;
      }
      controller.enqueue(encoder.encode(next.rows.map((item) => csvLine(row(item))).join('')));
      if (!next.hasNextPage || n >= MAX_PAGES) {
        controller.close();
        return;
      }
      n += 1;
      next = await page(n);
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** Today in Lagos (UTC+1), for a download's file name. */
export function lagosToday(now = new Date()): string {
  return new Date(now.getTime() + 3_600_000).toISOString().slice(0, 10);
}
