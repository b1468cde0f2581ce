import { normaliseName, type DnsZone, type MxValue } from './zone';

/** A record as the domains API lists it (`records[]` of `GET /v1/email/domains/{id}`). */
export interface PublishedRecord {
  type: 'TXT' | 'MX' | 'CNAME';
  name: string;
  value: string;
  priority?: number;
}

/**
 * Publishes the records as a person would at a DNS provider: for each name and type given, its records become
 * exactly the values given (other names and types stay).
 */
export function publishRecords(zone: DnsZone, records: PublishedRecord[]): void {
  const txt = new Map<string, string[]>();
  const mx = new Map<string, MxValue[]>();
  for (const r of records) {
    const name = normaliseName(r.name);
    if (r.type === 'CNAME') zone.setCname(name, r.value);
    else if (r.type === 'TXT') txt.set(name, [...(txt.get(name) ?? []), r.value]);
    else mx.set(name, [...(mx.get(name) ?? []), { exchange: r.value, priority: r.priority ?? 10 }]);
  }
  for (const [name, values] of txt) zone.set(name, values);
  for (const [name, values] of mx) zone.setMx(name, values);
}

/** The records of a body: a list, or an object with `records` (a domain as the API answers it); undefined if malformed. */
export function parsePublished(body: unknown): PublishedRecord[] | undefined {
  const list = Array.isArray(body) ? body : (body as { records?: unknown } | null)?.records;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return list.every(isPublished) ? (list as PublishedRecord[]) : undefined;
}

function isPublished(r: unknown): r is PublishedRecord {
  const x = r as Partial<PublishedRecord> | null;
  return (
    !!x &&
    (x.type === 'TXT' || x.type === 'MX' || x.type === 'CNAME') &&
    typeof x.name === 'string' &&
    x.name.length > 0 &&
    typeof x.value === 'string' &&
    (x.priority === undefined || (Number.isInteger(x.priority) && x.priority >= 0 && x.priority <= 65535))
  );
}
