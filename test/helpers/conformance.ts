import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { comparePrecedence } from '../../src/http/mount';

/**
 * Conformance by construction: every answer a test receives from an app is checked against that app's own
 * `/openapi.json`. A 2xx JSON body must match its operation's schema for that status (no missing, extra or mistyped
 * field: the document's objects are closed), a `Location` the response documents must be sent, and a status the
 * operation does not list fails too. So every test that
 * calls a route also tests the published document. CONFORMANCE=off skips the check; CONFORMANCE=report appends each
 * departure to the file CONFORMANCE_REPORT names instead of failing.
 */
export async function checkConformance(
  baseUrl: string,
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
): Promise<void> {
  const mode = process.env.CONFORMANCE ?? 'fail';
  if (mode === 'off' || status < 200 || status >= 300) return;
  const departure = await departureOf(await documentAt(baseUrl), method.toLowerCase(), url, status, headers, body);
  if (!departure) return;
  const message = `${method.toUpperCase()} ${url} answered ${status}, departing from /openapi.json: ${departure}`;
  if (mode === 'report') {
    const { appendFileSync } = await import('node:fs');
    appendFileSync(process.env.CONFORMANCE_REPORT ?? 'conformance-report.txt', `${message}\n`);
    return;
  }
  assert.fail(message);
}

interface Operation {
  responses?: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }>;
}

interface Document {
  paths: Array<{ template: string; pattern: RegExp; segments: string[]; operations: Record<string, Operation> }>;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

const documents = new Map<string, Promise<Document>>();

function documentAt(baseUrl: string): Promise<Document> {
  let doc = documents.get(baseUrl);
  if (!doc) {
    doc = loadDocument(baseUrl);
    documents.set(baseUrl, doc);
    doc.catch(() => documents.delete(baseUrl));
  }
  return doc;
}

/** Compiled documents by their text: the private apps of a run mostly publish the same document. */
const compiled = new Map<string, Document>();

async function loadDocument(baseUrl: string): Promise<Document> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  // A bare router a test mounts itself publishes no document: there is nothing to conform to.
  if (res.status === 404) return { paths: [], ajv: new Ajv2020(), validators: new Map() };
  assert.equal(res.status, 200, 'conformance: /openapi.json did not answer 200');
  const text = await res.text();
  const key = createHash('sha256').update(text).digest('hex');
  let doc = compiled.get(key);
  if (!doc) {
    doc = compile(JSON.parse(text));
    compiled.set(key, doc);
  }
  return doc;
}

function compile(openapi: { paths: Record<string, Record<string, Operation>>; components: unknown }): Document {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: openapi.components });
  const paths = Object.entries(openapi.paths).map(([template, operations]) => {
    const segments = template.split('/');
    return {
      template,
      operations,
      segments,
      pattern: new RegExp(`^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : escapeRegExp(s))).join('/')}$`),
    };
  });
  // The router's precedence: /jobs/bulk is not /jobs/{id}.
  paths.sort((a, b) => comparePrecedence(a.segments, b.segments));
  return { paths, ajv, validators: new Map() };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function departureOf(
  doc: Document,
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
): Promise<string | undefined> {
  const contentType = headers.get('content-type');
  const pathname = new URL(url, 'http://app').pathname;
  const path = doc.paths.find((p) => p.pattern.test(pathname) && p.operations[method]);
  if (!path) return undefined; // not a route of the app (404 route_not_found is not a 2xx)
  const responses = path.operations[method].responses ?? {};
  const response = responses[String(status)];
  if (!response) return `${method.toUpperCase()} ${path.template} does not list ${status} (it lists ${Object.keys(responses).join(', ')})`;
  if (Object.keys(response.headers ?? {}).some((h) => h.toLowerCase() === 'location') && !headers.get('location'))
    return `${status} documents a Location header, yet the answer has none`;
  if (!contentType?.includes('application/json')) return undefined;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return body === undefined ? undefined : `${status} has no JSON schema in the document, yet the answer has a JSON body`;
  const key = `${method} ${path.template} ${status}`;
  let validate = doc.validators.get(key);
  if (!validate) {
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
    validate = doc.ajv.compile(rebased);
    doc.validators.set(key, validate);
  }
  if (validate(body)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.keyword === 'additionalProperties' ? ` (${JSON.stringify(e.params)})` : ''}`)
    .join('; ');
}
