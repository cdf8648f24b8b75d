type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
};

function typeLabel(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(typeLabel).join(' or ');
  if (s.type === 'array') return `array of ${s.items ? typeLabel(s.items) : 'values'}`;
  const base = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'value');
  return s.format ? `${base} (${s.format})` : base;
}

/** A request body or query as a field table: name, type, required, notes. */
export function SchemaFields({ schema }: { schema: JsonSchema }) {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return null;
  const required = new Set(schema.required ?? []);
  return (
    <table className="mt-2 w-full text-left text-sm">
      <thead className="text-slate-500">
        <tr>
          <th className="py-1 pr-4 font-medium">Field</th>
          <th className="py-1 pr-4 font-medium">Type</th>
          <th className="py-1 font-medium">Notes</th>
        </tr>
      </thead>
      <tbody>
        {properties.map(([name, field]) => (
          <tr key={name} className="border-t align-top">
            <td className="py-1 pr-4 font-mono">
              {name}
              {required.has(name) ? <span className="text-rose-600"> *</span> : null}
            </td>
            <td className="py-1 pr-4 font-mono text-xs text-slate-700">{typeLabel(field)}</td>
            <td className="py-1 text-slate-600">
              {[field.description, field.maximum !== undefined ? `max ${field.maximum}` : '', field.maxLength ? `≤ ${field.maxLength} chars` : '']
                .filter(Boolean)
                .join('; ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
