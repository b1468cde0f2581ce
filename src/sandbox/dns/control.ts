import type { IncomingMessage, ServerResponse } from 'node:http';
import { readText, sendJson, sendRaw, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import { parsePublished, publishRecords } from './publish';
import type { DnsZone, MxValue } from './zone';

const RECORD_PATH = /^\/records\/([^/]+)$/;
const MAX_BODY = 64 * 1024;

/**
 * The sandbox DNS server's "provider console" over HTTP on loopback, so a person trying the sandbox can publish a
 * domain's records: `POST /publish` with a domain as `GET /v1/email/domains/{id}` answers it (or its `records` list)
 * publishes every record; `PUT /records/{name}` with `{ "txt": ["…"], "mx": [{ "exchange": "…", "priority": 10 }] }`
 * replaces the name's records of the types given; `DELETE /records/{name}` removes them all; `GET /records` lists
 * everything.
 */
export function startDnsControl(zone: DnsZone): Promise<LoopbackServer> {
  return startLoopbackServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://dns.sandbox');
    if (url.pathname === '/records' && req.method === 'GET') return sendJson(res, 200, { records: zone.list() });
    if (url.pathname === '/publish') {
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST' });
      const records = parsePublished(parseJson(await readText(req, MAX_BODY)));
      if (!records)
        return sendJson(res, 400, {
          error: 'send a domain as the API answers it, or {"records": [{"type": "TXT"|"MX", "name", "value", "priority"?}, …]}',
        });
      publishRecords(zone, records);
      return sendJson(res, 200, { published: records.length });
    }
    const match = RECORD_PATH.exec(url.pathname);
    if (!match) return sendJson(res, 404, { error: 'use GET /records, PUT or DELETE /records/{name}, POST /publish' });
    const name = decodeURIComponent(match[1]);
    if (req.method === 'DELETE') {
      zone.remove(name);
      return sendRaw(res, 204, '', {});
    }
    if (req.method !== 'PUT') return sendJson(res, 405, { error: 'PUT or DELETE' });
    const body = parseRecords(parseJson(await readText(req, MAX_BODY)));
    if (!body)
      return sendJson(res, 400, {
        error: 'send {"txt": ["value", …]} and/or {"mx": [{"exchange": "host", "priority": 10}, …]} (at most 64 KiB in all)',
      });
    if (body.txt) zone.set(name, body.txt);
    if (body.mx) zone.setMx(name, body.mx);
    return sendJson(res, 200, { name, ...body });
  });
}

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

function parseRecords(body: unknown): { txt?: string[]; mx?: MxValue[] } | undefined {
  const { txt, mx } = (body ?? {}) as { txt?: unknown; mx?: unknown };
  const txtOk = txt === undefined || (Array.isArray(txt) && txt.every((v) => typeof v === 'string'));
  const mxOk =
    mx === undefined ||
    (Array.isArray(mx) &&
      mx.every(
        (m: Partial<MxValue> | null) =>
          !!m && typeof m.exchange === 'string' && Number.isInteger(m.priority) && m.priority! >= 0 && m.priority! <= 65535,
      ));
  if (!txtOk || !mxOk || (txt === undefined && mx === undefined)) return undefined;
  return { ...(txt ? { txt: txt as string[] } : {}), ...(mx ? { mx: mx as MxValue[] } : {}) };
}
