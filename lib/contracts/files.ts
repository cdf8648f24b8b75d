/** POST /v1/files limits (decisions §8). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_FIELD = 'file';
