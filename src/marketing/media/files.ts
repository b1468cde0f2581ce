import { randomBytes } from 'node:crypto';

const MAX_STEM = 80;

/**
 * The stored file name: the client's base name reduced to URL-safe characters (so the public URL needs no
 * escaping), at most 80 characters before the extension, and the extension of the format actually decoded.
 * "../My Photo (1).JPG" of a PNG becomes "My-Photo-1.png"; a name with nothing usable becomes "image.png".
 */
export function storedFilename(clientName: string, extension: string): string {
  const base = clientName.split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_STEM)
    .replace(/[-.]+$/, '');
  return `${stem || 'image'}.${extension}`;
}

/** 32 random bytes, base64url: the 43-character unguessable part of a media file's public URL. */
export function newPublicToken(): string {
  return randomBytes(32).toString('base64url');
}

export function mediaPath(token: string, filename: string): string {
  return `/media/${token}/${filename}`;
}
