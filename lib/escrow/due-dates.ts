/**
 * A milestone's due date is when the seller must deliver by: one already past when it is set would make the
 * milestone overdue from the start (and the buyer could cancel at once, docs/decisions.md §13). Pure: `now` is the
 * client's clock (a test key's test clock, docs/decisions.md §10), handed in.
 */

/** The positions (0-based) of the due dates that are not later than `now`. */
export function pastDueDates(dueDates: readonly Date[], now: Date): number[] {
  return dueDates.flatMap((due, index) => (due.getTime() <= now.getTime() ? [index] : []));
}
