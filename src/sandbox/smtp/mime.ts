/**
 * Just enough MIME to read what a relay received: unfolded headers (RFC 2047 words decoded), and the text and html
 * bodies of a single-part or (nested) multipart message, with their transfer encodings undone.
 */
export interface ParsedMessage {
  headers: Array<{ name: string; value: string }>;
  /** The first header of that name (case ignored), decoded. */
  header(name: string): string | undefined;
  text: string | null;
  html: string | null;
}

export function parseMime(raw: Buffer | string): ParsedMessage {
  const entity = parseEntity(typeof raw === 'string' ? raw : raw.toString('latin1'));
  const bodies = { text: null as string | null, html: null as string | null };
  collectBodies(entity, bodies);
  return {
    headers: entity.headers,
    header: (name) => entity.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value,
    ...bodies,
  };
}

interface Entity {
  headers: Array<{ name: string; value: string }>;
  /** The body as sent (latin1: one char per byte), still transfer-encoded. */
  body: string;
}

function parseEntity(source: string): Entity {
  const split = /\r?\n\r?\n/.exec(source);
  const head = split ? source.slice(0, split.index) : source;
  const body = split ? source.slice(split.index + split[0].length) : '';
  const headers = head
    .replace(/\r?\n(?=[ \t])/g, '')
    .split(/\r?\n/)
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return { name: line.slice(0, colon).trim(), value: decodeWords(line.slice(colon + 1).trim()) };
    });
  return { headers, body };
}

function headerOf(entity: Entity, name: string): string {
  return entity.headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';
}

function collectBodies(entity: Entity, out: { text: string | null; html: string | null }): void {
  const contentType = headerOf(entity, 'content-type') || 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return;
    for (const part of splitParts(entity.body, boundary)) collectBodies(parseEntity(part), out);
    return;
  }
  const charset = /charset="?([^";]+)"?/i.exec(contentType)?.[1] ?? 'utf-8';
  const decoded = decodeBody(entity.body, headerOf(entity, 'content-transfer-encoding').toLowerCase(), charset);
  if (type === 'text/plain' && out.text === null) out.text = decoded;
  if (type === 'text/html' && out.html === null) out.html = decoded;
}

function splitParts(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const pieces = body.split(new RegExp(`\\r?\\n?${escapeRegExp(delimiter)}`));
  // pieces[0] is the preamble; the piece after the closing delimiter starts with "--".
  return pieces
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => p.replace(/^[ \t]*\r?\n/, ''));
}

function decodeBody(body: string, encoding: string, charset: string): string {
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? quotedPrintable(body)
        : Buffer.from(body, 'latin1');
  return new TextDecoder(charset.toLowerCase(), { fatal: false }).decode(bytes).replace(/\r\n/g, '\n').replace(/\n$/, '');
}

function quotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?utf-8?Q?…?=`, `=?utf-8?B?…?=`); whitespace between two adjacent words is dropped. */
function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g;
  return value.replace(/(\?=)\s+(?==\?)/g, '$1').replace(word, (_, charset: string, kind: string, text: string) => {
    const bytes = kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintable(text.replace(/_/g, ' '));
    return new TextDecoder(charset.toLowerCase(), { fatal: false }).decode(bytes);
  });
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
