import { describe, expect, it } from 'vitest';
import { ALLOWED_UPLOAD_MIME_TYPES, declaredTypeMatches, sniffFileType, type SniffedType } from './file-types';

function bytes(...parts: Array<string | number[]>): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'string') for (const ch of part) out.push(ch.charCodeAt(0));
    else out.push(...part);
  }
  return Uint8Array.from(out);
}

function be32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4;
  return bytes(be32(size), 'ftyp', major, [0, 0, 0, 0], ...compatible, be32(8), 'mdat');
}

const SAMPLES: ReadonlyArray<{ label: string; data: Uint8Array; mime: string; family: string; extension: string }> = [
  { label: 'PNG', data: bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], be32(13), 'IHDR'), mime: 'image/png', family: 'image', extension: 'png' },
  { label: 'JPEG (JFIF)', data: bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0]), mime: 'image/jpeg', family: 'image', extension: 'jpg' },
  { label: 'JPEG (Exif)', data: bytes([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10], 'Exif', [0, 0]), mime: 'image/jpeg', family: 'image', extension: 'jpg' },
  { label: 'GIF87a', data: bytes('GIF87a', [1, 0, 1, 0]), mime: 'image/gif', family: 'image', extension: 'gif' },
  { label: 'GIF89a', data: bytes('GIF89a', [1, 0, 1, 0]), mime: 'image/gif', family: 'image', extension: 'gif' },
  { label: 'WebP', data: bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), mime: 'image/webp', family: 'image', extension: 'webp' },
  { label: 'HEIC', data: ftyp('heic', 'mif1', 'heic'), mime: 'image/heic', family: 'image', extension: 'heic' },
  { label: 'HEIF (mif1)', data: ftyp('mif1', 'mif1'), mime: 'image/heif', family: 'image', extension: 'heif' },
  { label: 'PDF', data: bytes('%PDF-1.7\n%', [0xe2, 0xe3, 0xcf, 0xd3]), mime: 'application/pdf', family: 'pdf', extension: 'pdf' },
  { label: 'MP4 (isom)', data: ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'), mime: 'video/mp4', family: 'video', extension: 'mp4' },
  { label: 'MP4 (mp42)', data: ftyp('mp42', 'mp42', 'isom'), mime: 'video/mp4', family: 'video', extension: 'mp4' },
  { label: 'M4V', data: ftyp('M4V ', 'M4V ', 'mp42', 'isom'), mime: 'video/x-m4v', family: 'video', extension: 'm4v' },
  { label: 'QuickTime MOV', data: ftyp('qt  ', 'qt  '), mime: 'video/quicktime', family: 'video', extension: 'mov' },
  { label: '3GP', data: ftyp('3gp4', '3gp4', 'mp41'), mime: 'video/3gpp', family: 'video', extension: '3gp' },
  { label: 'WebM', data: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm', [0x42, 0x87, 0x81, 0x04]), mime: 'video/webm', family: 'video', extension: 'webm' },
  { label: 'MP3 (ID3v2.4)', data: bytes('ID3', [4, 0, 0, 0, 0, 0, 0x23]), mime: 'audio/mpeg', family: 'audio', extension: 'mp3' },
  { label: 'MP3 (frame sync, MPEG-1 layer III 128k 44.1kHz)', data: bytes([0xff, 0xfb, 0x90, 0x64, 0, 0]), mime: 'audio/mpeg', family: 'audio', extension: 'mp3' },
  { label: 'MP3 (frame sync, MPEG-2 layer III)', data: bytes([0xff, 0xf3, 0x64, 0xc4, 0, 0]), mime: 'audio/mpeg', family: 'audio', extension: 'mp3' },
  { label: 'M4A', data: ftyp('M4A ', 'M4A ', 'mp42', 'isom'), mime: 'audio/mp4', family: 'audio', extension: 'm4a' },
  { label: 'WAV', data: bytes('RIFF', [0x24, 0x08, 0, 0], 'WAVEfmt '), mime: 'audio/wav', family: 'audio', extension: 'wav' },
  { label: 'Ogg (Opus voice note)', data: bytes('OggS', [0, 2, 0, 0, 0, 0, 0, 0, 0, 0], 'OpusHead'), mime: 'audio/ogg', family: 'audio', extension: 'ogg' },
];

describe('sniffFileType', () => {
  it.each(SAMPLES)('recognises $label', ({ data, mime, family, extension }) => {
    expect(sniffFileType(data)).toEqual({ mime, family, extension });
  });

  it('only ever returns allowed types', () => {
    for (const { data } of SAMPLES) {
      const sniffed = sniffFileType(data);
      expect(sniffed && ALLOWED_UPLOAD_MIME_TYPES.includes(sniffed.mime)).toBe(true);
    }
  });

  it('falls back to compatible brands when the major brand is unfamiliar', () => {
    expect(sniffFileType(ftyp('XAVC', 'XAVC', 'mp42', 'iso2'))?.mime).toBe('video/mp4');
    expect(sniffFileType(ftyp('XAVC', 'XAVC'))).toBeNull();
  });

  it('rejects disguised and unsupported files', () => {
    const disguised = [
      bytes('<!DOCTYPE html><html><script>alert(1)</script>'),
      bytes('<html><body>'),
      bytes('<svg xmlns="http://www.w3.org/2000/svg">'),
      bytes('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0]), // Windows PE/.exe
      bytes([0x7f], 'ELF', [2, 1, 1]),
      bytes('PK', [3, 4, 20, 0]), // zip, docx, apk
      bytes('#!/bin/sh\n'),
      bytes('RIFF', [0x24, 0, 0, 0], 'AVI LIST'), // RIFF, but neither WebP nor WAV
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska'), // .mkv
      bytes([0xff, 0xf1, 0x50, 0x80]), // AAC ADTS, not MP3
      bytes([0xff, 0xfb, 0xf0, 0x64]), // frame sync with the forbidden bitrate index
      bytes('ID3 is a tag format'),
      bytes('%PD'),
      new Uint8Array(0),
      new Uint8Array([0x89, 0x50]),
    ];
    for (const data of disguised) expect(sniffFileType(data), Array.from(data.slice(0, 8)).join(',')).toBeNull();
  });

  it('reads only the bytes it is given (no out-of-range reads on truncated headers)', () => {
    for (const { data } of SAMPLES) {
      for (let length = 0; length < data.length; length++) {
        expect(() => sniffFileType(data.subarray(0, length))).not.toThrow();
      }
    }
  });
});

describe('declaredTypeMatches', () => {
  const jpeg = sniffFileType(SAMPLES[1]!.data) as SniffedType;
  const png = sniffFileType(SAMPLES[0]!.data) as SniffedType;
  const pdf = sniffFileType(bytes('%PDF-1.4')) as SniffedType;
  const mp4 = sniffFileType(ftyp('isom', 'isom')) as SniffedType;
  const webm = sniffFileType(SAMPLES.find((s) => s.label === 'WebM')!.data) as SniffedType;
  const mp3 = sniffFileType(bytes([0xff, 0xfb, 0x90, 0x64])) as SniffedType;
  const ogg = sniffFileType(SAMPLES.find((s) => s.label.startsWith('Ogg'))!.data) as SniffedType;

  it('accepts the exact type and its common aliases, ignoring case and parameters', () => {
    expect(declaredTypeMatches('image/jpeg', jpeg)).toBe(true);
    expect(declaredTypeMatches('image/jpg', jpeg)).toBe(true);
    expect(declaredTypeMatches('IMAGE/JPEG', jpeg)).toBe(true);
    expect(declaredTypeMatches('image/jpeg; charset=binary', jpeg)).toBe(true);
    expect(declaredTypeMatches('application/pdf; name="receipt.pdf"', pdf)).toBe(true);
    expect(declaredTypeMatches('application/x-pdf', pdf)).toBe(true);
    expect(declaredTypeMatches('audio/mp3', mp3)).toBe(true);
  });

  it('trusts the bytes when the client did not know the type', () => {
    expect(declaredTypeMatches('', png)).toBe(true);
    expect(declaredTypeMatches('application/octet-stream', pdf)).toBe(true);
    expect(declaredTypeMatches('  application/octet-stream ; x=y', mp4)).toBe(true);
  });

  it('tolerates a mislabel within the same family', () => {
    expect(declaredTypeMatches('image/png', jpeg)).toBe(true);
    expect(declaredTypeMatches('video/quicktime', mp4)).toBe(true);
  });

  it('accepts audio declared for a container that can hold audio only', () => {
    expect(declaredTypeMatches('audio/webm', webm)).toBe(true);
    expect(declaredTypeMatches('audio/mp4', mp4)).toBe(true);
    expect(declaredTypeMatches('audio/x-m4a', mp4)).toBe(true);
    expect(declaredTypeMatches('video/ogg', ogg)).toBe(true);
  });

  it('rejects a declared type of another family', () => {
    expect(declaredTypeMatches('application/pdf', png)).toBe(false);
    expect(declaredTypeMatches('image/png', pdf)).toBe(false);
    expect(declaredTypeMatches('video/mp4', jpeg)).toBe(false);
    expect(declaredTypeMatches('audio/mpeg', mp4)).toBe(false);
    expect(declaredTypeMatches('text/html', png)).toBe(false);
    expect(declaredTypeMatches('application/x-msdownload', png)).toBe(false);
    expect(declaredTypeMatches('application/zip', pdf)).toBe(false);
  });

  it('never lets an HTML or EXE payload through, whatever is declared', () => {
    for (const payload of [bytes('<!DOCTYPE html><p>hi'), bytes('MZ', [0x90, 0, 3, 0])]) {
      expect(sniffFileType(payload)).toBeNull();
    }
  });
});

describe('ALLOWED_UPLOAD_MIME_TYPES', () => {
  it('lists each supported type once and cannot be changed', () => {
    expect(new Set(ALLOWED_UPLOAD_MIME_TYPES).size).toBe(ALLOWED_UPLOAD_MIME_TYPES.length);
    expect(ALLOWED_UPLOAD_MIME_TYPES).toEqual(
      expect.arrayContaining(['image/png', 'image/jpeg', 'application/pdf', 'video/mp4', 'video/quicktime', 'audio/mpeg']),
    );
    expect(ALLOWED_UPLOAD_MIME_TYPES).not.toContain('image/svg+xml');
    expect(ALLOWED_UPLOAD_MIME_TYPES).not.toContain('text/html');
    expect(Object.isFrozen(ALLOWED_UPLOAD_MIME_TYPES)).toBe(true);
  });
});
