import { randomBytes } from 'node:crypto';

export type MultipartPart = { name: string; value: string } | { name: string; filename: string; contentType: string; bytes: Buffer };

/** A multipart/form-data body (RFC 7578) and the Content-Type header that names its boundary. */
export function multipartBody(parts: MultipartPart[]): { body: Buffer; contentType: string } {
  const boundary = `----workyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'value' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"; filename="${quoted(part.filename)}"\r\n` +
          `Content-Type: ${part.contentType}\r\n\r\n`;
    chunks.push(Buffer.from(head, 'utf8'), 'value' in part ? Buffer.from(part.value, 'utf8') : part.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Field names and file names are ours (no user text), but a quote or line break would still break the header. */
function quoted(value: string): string {
  return value.replace(/["\r\n]/g, '_');
}
