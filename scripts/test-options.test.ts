import { describe, expect, it } from 'vitest';
import { parseOptions } from './test-options';

const suites = (argv: string[], onPostgres = false) => [...parseOptions(argv, onPostgres).suites].sort();

describe('npm test options', () => {
  it('runs every suite on the embedded database, and what the database can change on PostgreSQL', () => {
    expect(suites([])).toEqual(['api', 'browser', 'lint', 'unit']);
    expect(suites([], true)).toEqual(['api', 'unit']);
  });

  it('--only picks suites by name, on either database', () => {
    expect(suites(['--only=unit'])).toEqual(['unit']);
    expect(suites(['--only=api,browser'], true)).toEqual(['api', 'browser']);
  });

  it('--changed keeps the suites and asks for the touched tests only', () => {
    expect(parseOptions(['--changed'], false)).toMatchObject({ changed: true, checkBrowserOnly: false });
    expect(suites(['--changed', '--only=unit'])).toEqual(['unit']);
  });

  it('refuses an unknown suite or option, naming what it takes', () => {
    expect(() => parseOptions(['--only=e2e'], false)).toThrow('--only takes lint, unit, api, browser (comma-separated), not "e2e"');
    expect(() => parseOptions(['--only='], false)).toThrow('--only takes');
    expect(() => parseOptions(['--fast'], false)).toThrow('Unknown option --fast');
  });
});
