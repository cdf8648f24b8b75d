/**
 * The test command's options (scripts/test.ts): which suites run, on which database, and whether only the tests the
 * working tree's change touches.
 */
export const SUITES = ['lint', 'unit', 'api', 'browser'] as const;
export type Suite = (typeof SUITES)[number];

export type Options = { suites: Set<Suite>; changed: boolean; checkBrowserOnly: boolean; onPostgres: boolean };

/**
 * Without --only: everything on the embedded database; on PostgreSQL (TEST_DATABASE_URL) what the database can change,
 * the unit tests on a real database and the HTTP suite (scripts/test.ts runs the `database` project for `unit` there).
 */
export function parseOptions(argv: string[], onPostgres: boolean): Options {
  const only = argv.find((arg) => arg.startsWith('--only='));
  const changed = argv.includes('--changed');
  const unknown = argv.filter((arg) => !arg.startsWith('--only=') && arg !== '--changed' && arg !== '--check-browser');
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(' ')}: npm test [-- --only=${SUITES.join(',')}] [--changed] [--check-browser]`);
  let suites: Set<Suite>;
  if (only) {
    const names = only.slice('--only='.length).split(',').filter(Boolean);
    const bad = names.filter((name) => !(SUITES as readonly string[]).includes(name));
    if (bad.length > 0 || names.length === 0) throw new Error(`--only takes ${SUITES.join(', ')} (comma-separated), not "${bad.join(',')}"`);
    suites = new Set(names as Suite[]);
  } else {
    suites = new Set(onPostgres ? ['unit', 'api'] : SUITES);
  }
  return { suites, changed, checkBrowserOnly: argv.includes('--check-browser'), onPostgres };
}
