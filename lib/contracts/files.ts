import { PlainText } from './common';

/** POST /v1/files limits (docs/decisions.md §8). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_FIELD = 'file';
/** The multipart file name is kept with the file (at most 200 characters are). */
export const UploadFileName = PlainText();
