/** The S3-style presigned POST an asset upload's second step sends: multipart fields (`key`, ..., `file`) or raw bytes with `?key=`. */
import type { SimRequest } from './http';

export interface UploadForm {
  key: string | null;
  bytes: Buffer;
}

export function readUpload(req: SimRequest): UploadForm {
  const type = String(req.headers['content-type'] ?? '');
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(type);
  if (!type.startsWith('multipart/form-data') || !boundary) return { key: req.query.get('key'), bytes: req.body };
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let key = req.query.get('key');
  let bytes = Buffer.alloc(0);
  let at = req.body.indexOf(delimiter);
  while (at >= 0) {
    const next = req.body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const part = req.body.subarray(at + delimiter.length + 2, next - 2); // drop the CRLF after the delimiter and before the next
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = part.subarray(0, split).toString('utf8');
      const content = part.subarray(split + 4);
      const name = /name="([^"]+)"/i.exec(head)?.[1];
      if (name === 'key') key = content.toString('utf8');
      if (name === 'file') bytes = Buffer.from(content);
    }
    at = next;
  }
  return { key, bytes };
}
