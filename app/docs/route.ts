import { apiReference } from '@/lib/api/document';
import { SCALAR_SCRIPT_URL } from './scalar-script';

/** Scalar's API reference over /v1/openapi.json. */
export const GET = apiReference(SCALAR_SCRIPT_URL);
