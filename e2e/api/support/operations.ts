/**
 * Every /v1 operation as the suites walk them, read from the API app's own definitions (lib/api): the
 * same route configs that make its validators, its OpenAPI document and the dashboard's client. Nothing
 * here is kept by hand, so an operation added to the app is in every suite that walks this list.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { app } from '@/lib/api/app';
import type { ActingParty, Auth, Tag } from '@/lib/api/operation';
import type { ErrorCode } from '@/lib/contracts/error-codes';

export type Operation = {
  id: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** As the document names it: /v1/milestones/{id}. */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** `signature`: a provider's webhook, authenticated by the signature over its body, not by a key. */
  auth: Auth | 'signature';
  actingParty?: ActingParty;
  query?: z.ZodObject;
  body?: z.ZodType;
  multipart?: boolean;
  /** The schema of a success's whole JSON answer ({status, message, data}); undefined for a binary answer. */
  success?: z.ZodType;
  binaryResponse?: boolean;
  errors: ErrorCode[];
};

type Content = Record<string, { schema?: unknown }>;
type Responses = Record<string, { content?: Content }>;

const isZod = (schema: unknown): schema is z.ZodType => schema instanceof z.ZodType;

function operationOf(route: RouteConfig): Operation {
  const body = route.request?.body?.content as Content | undefined;
  const responses = route.responses as Responses;
  const success = responses['200']?.content?.['application/json']?.schema;
  const errors = Object.entries(responses)
    .filter(([status]) => status !== '200')
    .flatMap(([, response]) => {
      const schema = response.content?.['application/json']?.schema as z.ZodObject<{ code: z.ZodEnum }> | undefined;
      return (schema?.shape.code.options ?? []) as ErrorCode[];
    });
  return {
    id: route.operationId!,
    method: route.method as Operation['method'],
    path: route.path,
    tag: route.tags![0] as Tag,
    summary: route.summary!,
    description: route.description,
    auth: route.security?.length === 0 ? 'signature' : route.security?.some((s) => 'operatorKey' in s) ? 'operator' : 'client',
    actingParty: route['x-acting-party'] as ActingParty | undefined,
    query: route.request?.query as z.ZodObject | undefined,
    body: isZod(body?.['application/json']?.schema) ? body['application/json'].schema : undefined,
    multipart: body?.['multipart/form-data'] ? true : undefined,
    success: isZod(success) ? success : undefined,
    binaryResponse: responses['200']?.content && !responses['200'].content['application/json'] ? true : undefined,
    errors,
  };
}

export const OPERATIONS: Operation[] = app.openAPIRegistry.definitions.flatMap((definition) => (definition.type === 'route' ? [operationOf(definition.route)] : []));

const templates = OPERATIONS.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
  fixed: op.path.split('/').filter((s) => !s.startsWith('{')).length,
}));

/** The operation a request goes to (a fixed segment before a path id, as the app routes), or undefined. */
export function operationAt(method: string, url: string): Operation | undefined {
  const path = new URL(url, 'http://localhost').pathname;
  const found = templates.filter((t) => t.op.method === method.toLowerCase() && t.pattern.test(path));
  return found.sort((a, b) => b.fixed - a.fixed)[0]?.op;
}
