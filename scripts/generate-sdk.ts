/**
 * `npm run sdk:generate`: writes sdk/src/schema.ts from the API's OpenAPI document, taken from the app's own route
 * definitions in this process (no server needed), or from a running server with `--url http://host:port`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openApiDocument } from '@/lib/api/app';
import { SDK_SCHEMA_PATH, sdkSchemaSource } from './sdk-schema-source';

const ROOT = path.resolve(__dirname, '..');

async function servedDocument(base: string): Promise<object> {
  const response = await fetch(new URL('/v1/openapi.json', base));
  if (!response.ok) throw new Error(`${base} answered ${response.status} for /v1/openapi.json`);
  return (await response.json()) as object;
}

async function main() {
  const { values } = parseArgs({ options: { url: { type: 'string' } } });
  const document = values.url ? await servedDocument(values.url) : openApiDocument();
  const target = path.join(ROOT, SDK_SCHEMA_PATH);
  const source = await sdkSchemaSource(document);
  const unchanged = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === source;
  if (!unchanged) fs.writeFileSync(target, source);
  console.log(`${SDK_SCHEMA_PATH}: ${unchanged ? 'already up to date' : 'written'}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`sdk:generate: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
