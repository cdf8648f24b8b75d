/**
 * Tests and the bench read some rows straight from the database; secrets in them are sealed by the
 * server (lib/server/crypto/secret-box.ts, server-only). This opens that format independently, from
 * its description: `enc:v1:` + base64url(12-byte IV | 16-byte GCM tag | ciphertext), the purpose as
 * additional data, AES-256-GCM.
 */
import { createDecipheriv, randomBytes } from 'node:crypto';

export const SEALED_PREFIX = 'enc:v1:';
export const PURPOSES = { webhookSecret: 'webhook signing secret', clientSecretKey: 'client secret key' } as const;

/** A fresh ESCROW_ENCRYPTION_KEY (base64), for a server whose sealed rows a test must open. */
export const newEncryptionKey = () => randomBytes(32).toString('base64');

export function openSealed(stored: string, keyBase64: string, purpose: string): string {
  if (!stored.startsWith(SEALED_PREFIX)) throw new Error(`not a sealed value: ${stored.slice(0, 12)}…`);
  const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
