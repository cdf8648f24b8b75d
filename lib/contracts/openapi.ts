/** The OpenAPI 3.1 document, generated from OPERATIONS and the zod schemas the handlers validate with. */
import { z } from 'zod';
import { ErrorEnvelope } from './common';
import { ERROR_STATUS, type ErrorCode } from './error-codes';
import { envelopeOf, OPERATIONS, type Operation } from './operations';

type JsonSchema = Record<string, unknown>;

const inputSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};
const outputSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid JSON, body, query or path id',
  401: 'Missing or unknown key',
  403: 'Not the acting party, or not allowed for this key',
  404: 'Unknown id, or an id of another client',
  409: 'Not allowed in the current state',
  413: 'Upload too large',
  415: 'Wrong content type',
  422: 'Idempotency-Key reused with another body',
  429: 'Rate limited',
};

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus.entries()].map(([status, list]) => [
      String(status),
      {
        description: `${STATUS_TEXT[status] ?? 'Error'} (code ${list.join(', ')})`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

function parameters(op: Operation) {
  const params: JsonSchema[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) {
    params.push({ name: match[1], in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  }
  if (op.query) {
    const shape = op.query.shape as Record<string, z.ZodType>;
    for (const [name, schema] of Object.entries(shape)) {
      params.push({ name, in: 'query', required: !schema.safeParse(undefined).success, schema: inputSchema(schema) });
    }
  }
  return params;
}

/** What the docs page shows of one operation, from the same pieces as the document. */
export function operationSummary(op: Operation) {
  const object = operationObject(op);
  return {
    description: object.description,
    query: object.parameters.filter((p) => p.in === 'query') as Array<{ name: string; required: boolean; schema: JsonSchema }>,
    body: op.body ? inputSchema(op.body) : undefined,
    errors: Object.entries(object.responses)
      .filter(([status]) => status !== '200')
      .map(([status, response]) => ({ status, description: (response as { description: string }).description })),
  };
}

function operationObject(op: Operation) {
  const body = op.multipart
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
          },
        },
      }
    : op.body
      ? { required: true, content: { 'application/json': { schema: inputSchema(op.body) } } }
      : undefined;
  const success = op.binaryResponse
    ? { description: 'The stored bytes', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
    : { description: 'Success', content: { 'application/json': { schema: outputSchema(envelopeOf(op)) } } };
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, op.actingParty ? `Acting party: the ${op.actingParty}.` : undefined].filter(Boolean).join(' '),
    security: [{ [op.auth === 'operator' ? 'operatorKey' : 'secretKey']: [] }],
    parameters: parameters(op),
    ...(body ? { requestBody: body } : {}),
    responses: { '200': success, ...errorResponses(op.errors) },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Escrow Desk API',
      version: '1.0.0',
      description:
        'Escrow per milestone: sellers deliver with proof, buyers inspect and accept or reject, returns and disputes are mediated. ' +
        'Amounts are naira (NGN) with at most 2 decimals. Every success is HTTP 200 with {status: true, message, data}; every error is {status: false, message, code, errors?}.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Your secret key, raw (sk_test_…) or as "Bearer sk_test_…".' },
        operatorKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The operator key (ESCROW_OPERATOR_KEY).' },
      },
      schemas: { Error: outputSchema(ErrorEnvelope) },
    },
    paths,
  };
}
