/** DNS response codes the sandbox answers with (RFC 1035 §4.1.1). */
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
export const TYPE_TXT = 16;
export const TYPE_MX = 15;
export const TYPE_CNAME = 5;

/** A TXT record: one string, or the character-strings of one record (each at most 255 bytes on the wire). */
export type TxtValue = string | string[];

export interface MxValue {
  exchange: string;
  priority: number;
}

export interface ZoneAnswer {
  rcode: number;
  /** Each TXT record's character-strings (a TXT question). */
  txt: string[][];
  /** The MX records (an MX question). */
  mx: MxValue[];
  /** The CNAME target (a CNAME question). */
  cname: string[];
}

interface NameRecords {
  txt?: string[][];
  mx?: MxValue[];
  cname?: string;
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
 * The sandbox's authoritative data: TXT and MX records per name. A name with records answers those of the type asked
 * (NOERROR with no answer for other types); a name that only has names below it is an empty non-terminal (NOERROR,
 * no data, RFC 8020); anything else is NXDOMAIN.
 */
export class DnsZone {
  private readonly records = new Map<string, NameRecords>();

  /** Replaces the TXT records of `name`. */
  set(name: string, values: TxtValue[]): void {
    this.update(name, { txt: values.map((v) => (Array.isArray(v) ? [...v] : chunks(v))) });
  }

  /** Replaces the MX records of `name`. */
  setMx(name: string, values: MxValue[]): void {
    this.update(name, { mx: values.map((v) => ({ exchange: normaliseName(v.exchange), priority: v.priority })) });
  }

  /** Makes `name` an alias of `target` (a CNAME question answers it; other types are not followed). */
  setCname(name: string, target: string): void {
    this.update(name, { cname: normaliseName(target) });
  }

  /** Removes every record of `name`. */
  remove(name: string): void {
    this.records.delete(normaliseName(name));
  }

  removeTxt(name: string): void {
    this.update(name, { txt: undefined });
  }

  removeMx(name: string): void {
    this.update(name, { mx: undefined });
  }

  clear(): void {
    this.records.clear();
  }

  /** Every name with its records (TXT strings joined, as a resolver reports them); a type a name lacks is left out. */
  list(): Array<{ name: string; txt?: string[]; mx?: MxValue[]; cname?: string }> {
    return [...this.records].map(([name, r]) => ({
      name,
      ...(r.txt ? { txt: r.txt.map((strings) => strings.join('')) } : {}),
      ...(r.mx ? { mx: r.mx.map((m) => ({ ...m })) } : {}),
      ...(r.cname ? { cname: r.cname } : {}),
    }));
  }

  answer(name: string, type: number): ZoneAnswer {
    const key = normaliseName(name);
    const held = this.records.get(key);
    if (held) {
      return {
        rcode: RCODE.NOERROR,
        txt: type === TYPE_TXT ? (held.txt ?? []) : [],
        mx: type === TYPE_MX ? (held.mx ?? []) : [],
        cname: type === TYPE_CNAME && held.cname ? [held.cname] : [],
      };
    }
    const hasChildren = [...this.records.keys()].some((stored) => stored.endsWith(`.${key}`));
    return { rcode: hasChildren ? RCODE.NOERROR : RCODE.NXDOMAIN, txt: [], mx: [], cname: [] };
  }

  private update(name: string, change: NameRecords): void {
    const key = normaliseName(name);
    const next = { ...this.records.get(key), ...change };
    if (next.txt === undefined && next.mx === undefined && next.cname === undefined) this.records.delete(key);
    else this.records.set(key, next);
  }
}
