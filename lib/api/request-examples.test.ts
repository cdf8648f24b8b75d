import type { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { app } from './app';

/** Each operation's JSON body with the example the reference shows of it. */
function bodiesWithExamples() {
  return app.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== 'route') return [];
    const json = definition.route.request?.body?.content['application/json'];
    if (!json || !('schema' in json)) return [];
    const operationId = definition.route.operationId ?? definition.route.path;
    const named = Object.entries((json.examples ?? {}) as Record<string, { value: unknown }>).map(([name, { value }]) => ({ operationId: `${operationId} (${name})`, schema: json.schema as z.ZodType, example: value }));
    return named.length > 0 ? named : [{ operationId, schema: json.schema as z.ZodType, example: json.example as unknown }];
  });
}

describe('request examples in the OpenAPI document', () => {
  it('pass the validation of the body they illustrate', () => {
    const bodies = bodiesWithExamples();
    expect(bodies.length).toBeGreaterThanOrEqual(40);
    for (const { operationId, schema, example } of bodies) {
      const parsed = schema.safeParse(example);
      expect(parsed.error?.issues ?? [], operationId).toEqual([]);
    }
  });
});
