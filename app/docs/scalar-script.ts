import 'server-only';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// Resolved from the project at run time, as Node resolves the package's public export, not through the bundler.
const fromProject = createRequire(path.join(process.cwd(), 'package.json'));

/** Scalar's browser bundle, read once: /docs loads it from this server, so the reference needs nothing from outside. */
export const SCALAR_SCRIPT = readFileSync(fromProject.resolve('@scalar/api-reference/browser/standalone.js'));

/** Where /docs loads it from: the content's hash in the URL lets browsers keep it until Scalar changes. */
export const SCALAR_SCRIPT_URL = `/docs/scalar.js?v=${createHash('sha256').update(SCALAR_SCRIPT).digest('hex').slice(0, 16)}`;
