/**
 * The little MIME a delivery report needs (RFC 3462 multipart/report): an entity's unfolded headers, its parts, the
 * transfer encoding undone, and the `Name: value` field groups of message/delivery-status and
 * message/feedback-report. Parts nest at most one level (a report's original message is read for headers only).
 */
export interface Entity {
  /** Header names in lower case, first occurrence of each. */
  headers: Map<string, string>;
  body: string;
}

export function parseEntity(source: string): Entity {
  const split = /\r?\n\r?\n/.exec(source);
  const head = split ? source.slice(0, split.index) : source;
  const body = split ? source.slice(split.index + split[0].length) : '';
  return { headers: fieldMap(head), body };
}

/** A header's parameter, e.g. `boundary` or `report-type` of Content-Type, lower-cased name match. */
export function headerParam(value: string | undefined, name: string): string | null {
  if (!value) return null;
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return match ? (match[1] ?? match[2]) : null;
}

/** The media type of an entity, lower case, without parameters (text/plain when absent). */
export const mediaType = (e: Entity): string => (e.headers.get('content-type') ?? 'text/plain').split(';')[0].trim().toLowerCase();

/** The parts of a multipart entity (none when it is not one). */
export function partsOf(e: Entity): Entity[] {
  const boundary = headerParam(e.headers.get('content-type'), 'boundary');
  if (!boundary) return [];
  const delimiter = `--${boundary}`;
  const sections = e.body.split(new RegExp(`(?:^|\\r?\\n)${escapeRegExp(delimiter)}`));
  const parts: Entity[] = [];
  // sections[0] is the preamble; a section starting with `--` is the close delimiter and what follows it.
  for (const section of sections.slice(1)) {
    if (section.startsWith('--')) break;
    parts.push(parseEntity(section.replace(/^[ \t]*\r?\n/, '')));
  }
  return parts;
}

/** The body with its Content-Transfer-Encoding undone (7bit/8bit as is). */
export function decodedBody(e: Entity): string {
  const encoding = (e.headers.get('content-transfer-encoding') ?? '').trim().toLowerCase();
  if (encoding === 'base64') return Buffer.from(e.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    return e.body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return e.body;
}

/** `Name: value` lines in groups separated by blank lines (RFC 3464 per-message then per-recipient fields). */
export function fieldGroups(text: string): Array<Map<string, string>> {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => fieldMap(block))
    .filter((group) => group.size > 0);
}

/** Unfolded `Name: value` lines; names lower case, the first occurrence kept. */
export function fieldMap(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** Every value of a repeatable field (Original-Rcpt-To may appear once per recipient). */
export function allFields(block: string, name: string): string[] {
  const values: string[] = [];
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) values.push(line.slice(colon + 1).trim());
  }
  return values;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
