/** The request/response values handlers work with: plain data, so handlers never touch node:http objects. */
import type { IncomingHttpHeaders } from 'node:http';
import { json, type SimResponse } from '../kit/response';
import type { z } from 'zod';

export interface SimRequest {
  method: string;
  /** The path with any `/v2` or `/beta` prefix removed. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Named groups of the matched route pattern. */
  params: Record<string, string>;
}

export { json, type SimResponse };

export interface ErrorDetail {
  param?: string;
  description: string;
}

/** The platform's error body: `{ code, message, externalReference, details }`. */
export function platformError(status: number, code: string, message: string, details: ErrorDetail[] = []): SimResponse {
  return json(status, { code, message, externalReference: null, details });
}

export const notFound = (what = 'Requested resource'): SimResponse => platformError(404, 'resource_not_found', `${what} not found`);

/** A JSON body, `{}` when empty, or undefined when it does not parse. */
export function jsonBody(req: SimRequest): unknown {
  if (req.body.length === 0) return {};
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: SimResponse };

/** Parses the JSON body with a zod schema; failures answer 400 validation_error with one detail per issue. */
export function parseBody<T extends z.ZodType>(req: SimRequest, schema: T): Parsed<z.infer<T>> {
  const body = jsonBody(req);
  if (body === undefined) return { ok: false, response: platformError(400, 'bad_request', 'Bad Request: Request is malformed') };
  return parseWith(schema, body);
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): Parsed<z.infer<T>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const details = result.error.issues.map((i) => ({ param: i.path.join('.'), description: i.message }));
  return { ok: false, response: platformError(400, 'validation_error', 'Validation Error: invalid request', details) };
}

/** Parameters from the query, a form body or a JSON body (the OAuth endpoints accept all three). */
export function formParams(req: SimRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of req.query) out.set(k, v);
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(req.body.toString('utf8'))) out.set(k, v);
    return out;
  }
  const body = jsonBody(req);
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out.set(k, v);
  }
  return out;
}
