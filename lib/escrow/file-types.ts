export type FileFamily = 'image' | 'pdf' | 'video' | 'audio';
export type SniffedType = { mime: string; family: FileFamily; extension: string };

const PNG: SniffedType = { mime: 'image/png', family: 'image', extension: 'png' };
const JPEG: SniffedType = { mime: 'image/jpeg', family: 'image', extension: 'jpg' };
const GIF: SniffedType = { mime: 'image/gif', family: 'image', extension: 'gif' };
const WEBP: SniffedType = { mime: 'image/webp', family: 'image', extension: 'webp' };
const HEIC: SniffedType = { mime: 'image/heic', family: 'image', extension: 'heic' };
const HEIF: SniffedType = { mime: 'image/heif', family: 'image', extension: 'heif' };
const PDF: SniffedType = { mime: 'application/pdf', family: 'pdf', extension: 'pdf' };
const MP4: SniffedType = { mime: 'video/mp4', family: 'video', extension: 'mp4' };
const M4V: SniffedType = { mime: 'video/x-m4v', family: 'video', extension: 'm4v' };
const MOV: SniffedType = { mime: 'video/quicktime', family: 'video', extension: 'mov' };
const THREE_GP: SniffedType = { mime: 'video/3gpp', family: 'video', extension: '3gp' };
const WEBM: SniffedType = { mime: 'video/webm', family: 'video', extension: 'webm' };
const MP3: SniffedType = { mime: 'audio/mpeg', family: 'audio', extension: 'mp3' };
const M4A: SniffedType = { mime: 'audio/mp4', family: 'audio', extension: 'm4a' };
const WAV: SniffedType = { mime: 'audio/wav', family: 'audio', extension: 'wav' };
const OGG: SniffedType = { mime: 'audio/ogg', family: 'audio', extension: 'ogg' };

export const ALLOWED_UPLOAD_MIME_TYPES: readonly string[] = Object.freeze(
  [PNG, JPEG, GIF, WEBP, HEIC, HEIF, PDF, MP4, M4V, MOV, THREE_GP, WEBM, MP3, M4A, WAV, OGG].map((t) => t.mime),
);

// ISO base media ("ftyp") files share one container; the brand says what is inside.
const FTYP_BRANDS: ReadonlyMap<string, SniffedType> = new Map([
  ['qt  ', MOV],
  ['M4V ', M4V],
  ['M4VH', M4V],
  ['M4VP', M4V],
  ['M4A ', M4A],
  ['M4B ', M4A],
  ['heic', HEIC],
  ['heix', HEIC],
  ['heim', HEIC],
  ['heis', HEIC],
  ['hevc', HEIC],
  ['hevx', HEIC],
  ['mif1', HEIF],
  ['msf1', HEIF],
  ['3gp4', THREE_GP],
  ['3gp5', THREE_GP],
  ['3gp6', THREE_GP],
  ['3gp7', THREE_GP],
  ['3ge6', THREE_GP],
  ['3ge7', THREE_GP],
  ['3gg6', THREE_GP],
  ['isom', MP4],
  ['iso2', MP4],
  ['iso4', MP4],
  ['iso5', MP4],
  ['iso6', MP4],
  ['mp41', MP4],
  ['mp42', MP4],
  ['avc1', MP4],
  ['dash', MP4],
  ['mmp4', MP4],
  ['MSNV', MP4],
  ['f4v ', MP4],
]);

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string | null {
  if (bytes.length < offset + length) return null;
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function uint32(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] ?? 0) * 0x1000000) +
    ((bytes[offset + 1] ?? 0) << 16) +
    ((bytes[offset + 2] ?? 0) << 8) +
    (bytes[offset + 3] ?? 0)
  );
}

function sniffFtyp(bytes: Uint8Array): SniffedType | null {
  if (ascii(bytes, 4, 4) !== 'ftyp') return null;
  const major = ascii(bytes, 8, 4);
  const known = major === null ? undefined : FTYP_BRANDS.get(major);
  if (known) return known;
  // An unfamiliar major brand can still declare a familiar compatible brand.
  const boxEnd = Math.min(uint32(bytes, 0), bytes.length);
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) {
    const brand = ascii(bytes, offset, 4);
    const compatible = brand === null ? undefined : FTYP_BRANDS.get(brand);
    if (compatible) return compatible;
  }
  return null;
}

function sniffEbml(bytes: Uint8Array): SniffedType | null {
  if (!startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  // The DocType sits in the EBML header; Matroska (.mkv) shares the magic but is not accepted.
  const header = ascii(bytes, 0, Math.min(bytes.length, 64)) ?? '';
  return header.includes('webm') ? WEBM : null;
}

// Tagged MP3s open with an ID3v2 header; its major version (2-4) and a non-0xFF revision rule
// out text that merely begins with the letters "ID3".
function isId3Tag(bytes: Uint8Array): boolean {
  const version = bytes[3] ?? 0;
  return bytes.length >= 10 && ascii(bytes, 0, 3) === 'ID3' && version >= 2 && version <= 4 && bytes[4] !== 0xff;
}

// Bare MPEG audio has no magic string, only an 11-bit frame sync. Requiring layer III and legal
// version, bitrate and sample-rate fields keeps it from matching arbitrary 0xFF-led data
// (JPEG's FF D8 and AAC's FF F1 both fail these checks).
function isMp3Frame(bytes: Uint8Array): boolean {
  const [b0, b1, b2] = [bytes[0], bytes[1], bytes[2]];
  if (b0 !== 0xff || b1 === undefined || b2 === undefined) return false;
  if ((b1 & 0xe0) !== 0xe0) return false;
  if ((b1 & 0x18) === 0x08) return false; // reserved MPEG version
  if ((b1 & 0x06) !== 0x02) return false; // not layer III
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 0x03;
  return bitrate !== 0x0 && bitrate !== 0xf && sampleRate !== 0x3;
}

export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  const head6 = ascii(bytes, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return GIF;
  if (ascii(bytes, 0, 5) === '%PDF-') return PDF;
  if (ascii(bytes, 0, 4) === 'RIFF') {
    const form = ascii(bytes, 8, 4);
    if (form === 'WEBP') return WEBP;
    if (form === 'WAVE') return WAV;
    return null;
  }
  if (ascii(bytes, 0, 4) === 'OggS' && bytes[4] === 0) return OGG;
  if (isId3Tag(bytes)) return MP3;
  return sniffFtyp(bytes) ?? sniffEbml(bytes) ?? (isMp3Frame(bytes) ? MP3 : null);
}

const ALIASES: ReadonlyMap<string, string> = new Map([
  ['image/jpg', 'image/jpeg'],
  ['image/pjpeg', 'image/jpeg'],
  ['image/x-png', 'image/png'],
  ['application/x-pdf', 'application/pdf'],
  ['audio/mp3', 'audio/mpeg'],
  ['audio/mpeg3', 'audio/mpeg'],
  ['audio/x-mp3', 'audio/mpeg'],
  ['audio/x-mpeg', 'audio/mpeg'],
  ['audio/x-wav', 'audio/wav'],
  ['audio/wave', 'audio/wav'],
  ['audio/vnd.wave', 'audio/wav'],
  ['audio/x-m4a', 'audio/mp4'],
  ['audio/m4a', 'audio/mp4'],
  ['application/ogg', 'audio/ogg'],
]);

// Containers that legitimately hold either sound or picture: a voice note recorded by a browser
// is declared audio/webm or audio/mp4 but sniffs as the video container, and a phone's .ogg may
// be declared video/ogg. The bytes cannot settle which without parsing tracks.
const SHARED_CONTAINERS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['video/webm', 'audio/webm']),
  new Set(['video/mp4', 'video/x-m4v', 'audio/mp4']),
  new Set(['audio/ogg', 'video/ogg']),
  new Set(['video/3gpp', 'audio/3gpp']),
];

function familyOf(mime: string): FileFamily | null {
  if (mime === 'application/pdf') return 'pdf';
  const top = mime.split('/')[0];
  return top === 'image' || top === 'video' || top === 'audio' ? top : null;
}

// We store and serve the sniffed type, never the declared one, so a same-family mislabel (a JPEG
// named .png) is harmless; what matters is that the client did not claim a different kind of file.
export function declaredTypeMatches(declared: string, sniffed: SniffedType): boolean {
  const bare = (declared.split(';')[0] ?? '').trim().toLowerCase();
  if (bare === '' || bare === 'application/octet-stream') return true;
  const normalized = ALIASES.get(bare) ?? bare;
  if (normalized === sniffed.mime) return true;
  if (SHARED_CONTAINERS.some((group) => group.has(normalized) && group.has(sniffed.mime))) return true;
  return familyOf(normalized) === sniffed.family;
}
