import { pipeline, type Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Thrown when the (decoded) body passes the byte limit; the fetch maps it to page_too_large. */
export class BodyTooLarge extends Error {}
/** Thrown for a Content-Encoding we cannot decode. */
export class UnsupportedEncoding extends Error {}

/** The body as bytes, decompressed per Content-Encoding and read streaming; reading stops past `maxBytes`. */
export async function readLimitedBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const stream = decoded(body, (contentEncoding ?? '').trim().toLowerCase());
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Counting decoded bytes also stops a small compressed body that expands without bound.
      if (size > maxBytes) throw new BodyTooLarge();
      chunks.push(chunk);
    }
  } finally {
    if (size > maxBytes)
      for (const s of [stream, body]) {
        s.on('error', () => {});
        s.destroy();
      }
  }
  return Buffer.concat(chunks);
}

function decoded(body: Readable, encoding: string): Readable {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'br'
        ? createBrotliDecompress()
        : encoding === 'deflate'
          ? createInflate()
          : encoding === '' || encoding === 'identity'
            ? null
            : undefined;
  if (decoder === undefined) {
    body.on('error', () => {});
    body.destroy();
    throw new UnsupportedEncoding(`unsupported content encoding ${encoding.slice(0, 40)}`);
  }
  return decoder ? pipeline(body, decoder, () => {}) : body;
}

/**
 * Text of the body in its charset: a byte-order mark first, then the Content-Type charset, then (for HTML) a
 * `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1024 bytes, else UTF-8. An unknown charset
 * label reads as UTF-8.
 */
export function decodeBody(bytes: Buffer, contentTypeHeader: string, html: boolean): string {
  const label = bomCharset(bytes) ?? headerCharset(contentTypeHeader) ?? (html ? metaCharset(bytes) : undefined) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}

function bomCharset(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

export function headerCharset(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
}

function metaCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 1024).toString('latin1');
  for (const meta of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const charset = /charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(meta)?.[1];
    if (charset) return charset.toLowerCase();
  }
  return undefined;
}

/** A body without a Content-Type: HTML when it starts like a page, text when it has no control bytes, else neither. */
export function sniffType(bytes: Buffer): 'text/html' | 'text/plain' | undefined {
  const start = bytes
    .subarray(0, 1024)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (/^<(!doctype html|html|head|body|!--|p[\s>]|div[\s>]|title)/i.test(start)) return 'text/html';
  return /[\x00-\x08\x0e-\x1a\x1c-\x1f]/.test(start) ? undefined : 'text/plain';
}
