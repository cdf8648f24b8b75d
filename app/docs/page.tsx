import type { Metadata } from 'next';
import { SchemaFields } from '@/components/docs/schema-fields';
import { ScrollBox } from '@/components/ui/scroll-box';
import { openApiDocument } from '@/lib/api/app';

export const metadata: Metadata = { title: 'API reference' };

const METHOD_STYLE: Record<string, string> = {
  get: 'bg-sky-100 text-sky-800',
  post: 'bg-emerald-100 text-emerald-800',
  patch: 'bg-amber-100 text-amber-800',
  delete: 'bg-rose-100 text-rose-800',
};

type JsonSchema = Parameters<typeof SchemaFields>[0]['schema'];
type Parameter = { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string }>;
};

/** The operations of the app's own OpenAPI document (lib/api), in its order. */
function operations() {
  const { paths } = openApiDocument();
  return Object.entries(paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, ...op })),
  );
}

export default function DocsPage() {
  const { info } = openApiDocument();
  const all = operations();
  const tags = [...new Set(all.map((op) => op.tags[0]!))];
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <h1 className="text-3xl font-semibold">Escrow Desk API reference</h1>
      <p className="mt-3 max-w-3xl text-slate-600">{info.description}</p>
      <section className="mt-6 rounded-lg border bg-white p-4 text-sm">
        <h2 className="font-semibold">Authentication and errors</h2>
        <p className="mt-2">
          Send your secret key in <code>Authorization</code>, raw (<code>sk_test_…</code>) or as <code>Bearer sk_test_…</code>. Public keys
          are refused. Errors are <code>{'{status: false, message, code, errors?}'}</code>: 400 invalid input, 401 missing or unknown key,
          403 wrong party or duplicate email, 404 unknown id (or another client&apos;s), 409 wrong state, 413 too large, 415 wrong content
          type. Every milestone and dispute carries <code>allowed_actions</code> per party and the running <code>deadlines</code>.
        </p>
        <p className="mt-2">
          Machine-readable: <a className="text-emerald-700 underline" href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).
        </p>
      </section>
      <nav aria-label="Sections" className="mt-6 flex flex-wrap gap-3 text-sm">
        {tags.map((tag) => (
          <a key={tag} className="text-emerald-700 underline" href={`#${tag.replace(/\s+/g, '-').toLowerCase()}`}>
            {tag}
          </a>
        ))}
      </nav>
      {tags.map((tag) => (
        <section key={tag} id={tag.replace(/\s+/g, '-').toLowerCase()} className="mt-10">
          <h2 className="text-xl font-semibold">{tag}</h2>
          {all
            .filter((op) => op.tags[0] === tag)
            .map((op) => {
              const query = (op.parameters ?? []).filter((p) => p.in === 'query');
              const body = op.requestBody?.content['application/json']?.schema;
              const multipart = Boolean(op.requestBody?.content['multipart/form-data']);
              const errors = Object.entries(op.responses).filter(([status]) => status !== '200');
              return (
                <article key={op.operationId} id={op.operationId} className="mt-4 rounded-lg border bg-white p-4">
                  <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
                    <span className={`rounded px-2 py-0.5 text-xs font-bold uppercase ${METHOD_STYLE[op.method]}`}>{op.method}</span>
                    <span className="min-w-0 [overflow-wrap:anywhere]">{op.path}</span>
                  </h3>
                  <p className="mt-2 font-medium">{op.summary}</p>
                  {op.description ? <p className="mt-1 break-words text-sm text-slate-600">{op.description}</p> : null}
                  {query.length > 0 ? (
                    <>
                      <h4 className="mt-3 text-sm font-semibold">Query</h4>
                      <ScrollBox label={`${op.summary}: query fields`}>
                        <SchemaFields
                          schema={{
                            type: 'object',
                            properties: Object.fromEntries(query.map((p) => [p.name, { ...p.schema, description: p.schema?.description ?? p.description }])),
                            required: query.filter((p) => p.required).map((p) => p.name),
                          }}
                        />
                      </ScrollBox>
                    </>
                  ) : null}
                  {body ? (
                    <>
                      <h4 className="mt-3 text-sm font-semibold">Body</h4>
                      <ScrollBox label={`${op.summary}: body fields`}>
                        <SchemaFields schema={body} />
                      </ScrollBox>
                    </>
                  ) : null}
                  {multipart ? <p className="mt-3 text-sm">Body: multipart/form-data with the file in the field <code>file</code>.</p> : null}
                  <h4 className="mt-3 text-sm font-semibold">Errors</h4>
                  <ul className="mt-1 text-sm text-slate-600">
                    {errors.map(([status, { description }]) => (
                      <li key={status}>
                        <span className="font-mono">{status}</span> {description}
                      </li>
                    ))}
                  </ul>
                </article>
              );
            })}
        </section>
      ))}
    </main>
  );
}
