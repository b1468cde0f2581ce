/** DNS response codes the sandbox answers with (RFC 1035 §4.1.1). */
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
export const TYPE_TXT = 16;

/** A TXT record: one string, or the character-strings of one record (each at most 255 bytes on the wire). */
export type TxtValue = string | string[];

export interface ZoneAnswer {
  rcode: number;
  /** Each record's character-strings. */
  txt: string[][];
}

/** `Example.COM.` and `example.com` are one name. */
export const normaliseName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Splits a long string into 255-byte character-strings, as DNS providers publish long TXT values. */
function chunks(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= 255) return [value];
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) parts.push(bytes.subarray(i, i + 255).toString('utf8'));
  return parts;
}

/**
 * The sandbox's authoritative data: TXT records per name. A name with records answers them (NOERROR with no answer
 * for other types); a name that only has names below it is an empty non-terminal (NOERROR, no data, RFC 8020);
 * anything else is NXDOMAIN.
 */
export class TxtZone {
  private readonly records = new Map<string, string[][]>();

  set(name: string, values: TxtValue[]): void {
    this.records.set(
      normaliseName(name),
      values.map((v) => (Array.isArray(v) ? [...v] : chunks(v))),
    );
  }

  remove(name: string): void {
    this.records.delete(normaliseName(name));
  }

  clear(): void {
    this.records.clear();
  }

  /** Every name with its records' strings joined, as a resolver reports them. */
  list(): Array<{ name: string; txt: string[] }> {
    return [...this.records].map(([name, txt]) => ({ name, txt: txt.map((strings) => strings.join('')) }));
  }

  answer(name: string, type: number): ZoneAnswer {
    const key = normaliseName(name);
    const txt = this.records.get(key);
    if (txt) return { rcode: RCODE.NOERROR, txt: type === TYPE_TXT ? txt : [] };
    const hasChildren = [...this.records.keys()].some((stored) => stored.endsWith(`.${key}`));
    return { rcode: hasChildren ? RCODE.NOERROR : RCODE.NXDOMAIN, txt: [] };
  }
}
