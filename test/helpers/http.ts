import { checkConformance } from './conformance';
import { harness } from './harness';

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** One real HTTP request to the test app. */
export function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  return callAt(harness().baseUrl, method, path, options);
}

/** One real HTTP request to any app (a private test app on its own port); a 2xx answer is checked against the app's /openapi.json. */
export async function callAt(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  await checkConformance(baseUrl, method, path, res.status, res.headers, parsed);
  return { status: res.status, body: parsed, text, headers: res.headers };
}
