import { z } from 'zod';
import { hasNoNul, NO_NUL } from './common';

/**
 * `include=a,b`: the related records a record's GET carries beside it (issue #60), named in one comma-separated
 * query parameter so a page reads what it shows in one request. An unknown name is 400 naming it, never ignored:
 * a misspelt include would otherwise look like a record with nothing related.
 */
export function includeParam<const T extends string>(names: readonly [T, ...T[]], description: string) {
  const known: ReadonlySet<string> = new Set(names);
  return z
    .string()
    .refine(hasNoNul, NO_NUL)
    .transform((value, ctx): T[] => {
      const asked = value.split(',').map((name) => name.trim());
      // An empty name (`include=`, a trailing comma) is a slip like a misspelt one: refused, not read as "nothing".
      const unknown = asked.filter((name) => !known.has(name)).map((name) => (name === '' ? '(empty)' : name));
      if (unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `has unknown values: ${unknown.join(', ')} (it takes ${names.join(', ')})` });
        return z.NEVER;
      }
      return names.filter((name) => asked.includes(name));
    })
    .optional()
    .meta({ description: `${description}: a comma-separated list of ${names.join(', ')}; any other value is 400`, example: names.join(',') });
}

/** Whether an include list, as includeParam parsed it, names `name`. */
export const includes = <T extends string>(asked: readonly T[] | undefined, name: T): boolean => asked?.includes(name) ?? false;
