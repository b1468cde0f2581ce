/** The request/response values handlers work with: plain data, so handlers never touch node:http objects. */
import type { IncomingHttpHeaders } from 'node:http';
import { json, type SimResponse } from '../kit/response';

export interface SimRequest {
  method: string;
  /** The shop domain from the first path segment. */
  domain: string;
  /** The path after the shop segment, e.g. `/admin/api/2025-04/orders.json`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The simulator's own base URL, for absolute links (Link header, redirects). */
  baseUrl: string;
}

export { json, type SimResponse };

export const notFound = (): SimResponse => json(404, { errors: 'Not Found' });

/** 422 in the platform's shape: `{ errors: { field: [messages] } }`. */
export function unprocessable(field: string, message: string): SimResponse {
  return json(422, { errors: { [field]: [message] } });
}

export function badParam(field: string, message: string): SimResponse {
  return json(400, { errors: { [field]: [message] } });
}

/** A JSON body, or undefined when it is absent or not JSON. */
export function jsonBody(req: SimRequest): unknown {
  if (req.body.length === 0) return undefined;
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Parameters from the query, a form body or a JSON body (the token exchange accepts all three). */
export function formParams(req: SimRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of req.query) out.set(k, v);
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(req.body.toString('utf8'))) out.set(k, v);
  } else {
    const body = jsonBody(req);
    if (body && typeof body === 'object') {
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out.set(k, v);
    }
  }
  return out;
}
