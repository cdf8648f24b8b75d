import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import zodFree from './zod-free.json';

/**
 * Lint lets components take values from the contract modules named in zod-free.json (eslint.config.mjs): each must
 * stay free of zod, itself and through everything it imports, or a component would bring the schema library into
 * the browser.
 */
const ROOT = path.resolve(__dirname, '../..');

/** The modules a source imports values from (type-only imports are erased from the bundle). */
function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    if (!match[1]) found.push(match[2]!);
  }
  return found;
}

/** Our own module a specifier names (`@/…` or relative), or null for a package. */
function ownModule(specifier: string, from: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null;
  if (base === null) return null;
  const file = ['.ts', '.tsx', '/index.ts'].map((ending) => base + ending).find((candidate) => fs.existsSync(candidate));
  if (!file) throw new Error(`${specifier} (imported by ${path.relative(ROOT, from)}) is not a module here`);
  return file;
}

/** The packages a module brings in, through every module of ours it imports. */
function packagesReached(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  for (const specifier of valueImports(fs.readFileSync(file, 'utf8'))) {
    const own = ownModule(specifier, file);
    if (own === null) packages.add(specifier);
    else for (const reached of packagesReached(own, seen)) packages.add(reached);
  }
  return packages;
}

describe('the zod-free contract modules', () => {
  it('reads value imports, skips type-only ones and follows our own modules', () => {
    expect(valueImports(`import { z } from 'zod';\nimport type { Y } from './y';\nexport { a } from './a';\nimport './side';`)).toEqual(['zod', './a', './side']);
    expect(valueImports(`import {\n  A,\n  B,\n} from '@/lib/contracts/common';`)).toEqual(['@/lib/contracts/common']);
    // The check can fail: a contract module built on zod reaches it.
    expect([...packagesReached(path.join(__dirname, 'users.ts'))]).toContain('zod');
  });

  it.each(zodFree)('%s reaches no zod', (name) => {
    const reached = [...packagesReached(path.join(__dirname, `${name}.ts`))];
    expect(reached.filter((p) => p === 'zod' || p.startsWith('zod/') || p.startsWith('@hono/zod'))).toEqual([]);
  });
});
