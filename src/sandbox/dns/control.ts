import type { IncomingMessage, ServerResponse } from 'node:http';
import { readText, sendJson, sendRaw, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import type { TxtZone } from './zone';

const RECORD_PATH = /^\/records\/([^/]+)$/;
const MAX_BODY = 64 * 1024;

/**
 * The sandbox DNS server's "provider console" over HTTP on loopback, so a person trying the sandbox can publish a
 * verification record: `PUT /records/{name}` with `{ "txt": ["…"] }` replaces the name's TXT records,
 * `DELETE /records/{name}` removes them, `GET /records` lists everything.
 */
export function startDnsControl(zone: TxtZone): Promise<LoopbackServer> {
  return startLoopbackServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://dns.sandbox');
    if (url.pathname === '/records' && req.method === 'GET') return sendJson(res, 200, { records: zone.list() });
    const match = RECORD_PATH.exec(url.pathname);
    if (!match) return sendJson(res, 404, { error: 'use GET /records, PUT or DELETE /records/{name}' });
    const name = decodeURIComponent(match[1]);
    if (req.method === 'DELETE') {
      zone.remove(name);
      return sendRaw(res, 204, '', {});
    }
    if (req.method !== 'PUT') return sendJson(res, 405, { error: 'PUT or DELETE' });
    const txt = parseTxt(await readText(req, MAX_BODY));
    if (!txt) return sendJson(res, 400, { error: 'send {"txt": ["value", …]} (strings, at most 64 KiB in all)' });
    zone.set(name, txt);
    return sendJson(res, 200, { name, txt });
  });
}

function parseTxt(text: string | undefined): string[] | undefined {
  try {
    const body = JSON.parse(text ?? '') as { txt?: unknown };
    return Array.isArray(body.txt) && body.txt.every((v) => typeof v === 'string') ? (body.txt as string[]) : undefined;
  } catch {
    return undefined;
  }
}
