import 'server-only';

/** A cell as the list has it: text, a naira amount or an ISO date, or nothing. */
export type CsvCell = string | number | null | undefined;

/**
 * One cell: a number as a plain number (no symbol, no separators); text with a leading = + - @ (or tab,
 * carriage return) prefixed with ' so a spreadsheet does not run it as a formula (OWASP CSV injection),
 * then quoted when it holds a quote, comma or line break.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
