import 'server-only';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, decodeKey, env } from '../env';

/**
 * Secrets the service must read back (the demo client's secret key for the dashboard, webhook signing
 * secrets; later each client's key for its dashboard) are kept encrypted at rest with AES-256-GCM
 * (docs/decisions.md §14). A sealed value is text, so it fits the columns that held the plaintext:
 * `enc:v1:` + base64url(12-byte IV | 16-byte tag | ciphertext). The purpose is bound in as additional
 * data, so a value sealed for one use does not open as another.
 */

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What each kind of secret is sealed as; a value sealed as one never opens as another. */
export const PURPOSE = {
  webhookSecret: 'webhook signing secret',
  clientSecretKey: 'client secret key',
  keyCheck: 'encryption key check',
  /** The body of an email that holds a secret (an invitation's one-time link). */
  emailBody: 'email body',
} as const;
export type Purpose = (typeof PURPOSE)[keyof typeof PURPOSE];

export class SecretBoxError extends Error {}

export type SecretBox = {
  seal: (plaintext: string, purpose: Purpose) => string;
  /** The plaintext; a value written before encryption (not sealed) is returned as it is, until the start-up pass seals it. */
  open: (stored: string, purpose: Purpose) => string;
};

export const isSealed = (value: string) => value.startsWith(PREFIX);

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('an AES-256 key is 32 bytes');
  return {
    seal(plaintext, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
    },
    open(stored, purpose) {
      if (!isSealed(stored)) return stored;
      const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('a sealed secret is cut short');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('a sealed secret does not open with this encryption key');
      }
    },
  };
}

export const KEY_FILE_NAME = 'encryption-key';

/**
 * ESCROW_ENCRYPTION_KEY, or a key made on first start in a 0600 file beside the embedded database.
 * The file is written whole under another name and linked into place, so a process starting at the
 * same moment reads either no file (and makes its own attempt) or the winner's complete key.
 */
export function keySource(): { key: Buffer; from: string } {
  const fromEnv = env().ESCROW_ENCRYPTION_KEY;
  if (fromEnv) return { key: fromEnv, from: 'ESCROW_ENCRYPTION_KEY' };
  const dir = dataDir();
  const file = path.join(dir, KEY_FILE_NAME);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(draft);
    }
  }
  const key = decodeKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new SecretBoxError(`${file} holds no usable key (32 bytes in base64): restore it from a backup, or set ESCROW_ENCRYPTION_KEY.`);
  return { key, from: file };
}

let cached: SecretBox | undefined;

/** The process's box, over the key from keySource(). */
export function secretBox(): SecretBox {
  return (cached ??= createSecretBox(keySource().key));
}
