/**
 * The text of sdk/src/schema.ts for an OpenAPI document: openapi-typescript's types of every operation, under a
 * header that says how to regenerate it. scripts/generate-sdk.ts writes it; e2e/api/sdk.test.ts compares it with
 * the committed file, so the SDK cannot drift from the document the server serves.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';

export const SDK_SCHEMA_PATH = 'sdk/src/schema.ts';
export const REGENERATE_COMMAND = 'npm run sdk:generate';

const HEADER = `/**
 * Generated from the Escrow Desk OpenAPI document (/v1/openapi.json) by scripts/generate-sdk.ts: do not edit.
 * Regenerate with \`${REGENERATE_COMMAND}\` after changing an operation; \`npm test\` fails while this file differs.
 */

`;

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

export async function sdkSchemaSource(document: object): Promise<string> {
  // A JSON round trip: the file must depend only on what the server would serve, never on fields left undefined.
  const served = JSON.parse(JSON.stringify(document)) as OpenAPI3;
  const ast = await openapiTS(served, {
    silent: true,
    // An uploaded file is bytes: typed as a Blob, so `file: new Blob([...])` type-checks in a multipart body.
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  });
  return HEADER + astToString(ast);
}
