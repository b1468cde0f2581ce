import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { ProviderError } from './errors';
import { BodyTooLarge, decodeBody, readLimitedBody, sniffType, UnsupportedEncoding } from './pageBody';
import { blockedAddressKind } from './privateAddress';
import { readableText } from './readableText';
import { BLOCKED_HOST_CODE, publicOnlyLookup } from './safeLookup';

export interface FetchedPage {
  url: string;
  finalUrl: string;
  status: number;
  /** The media type the page was read as: text/html, application/xhtml+xml or text/plain. */
  contentType: string;
  title: string | null;
  text: string;
  characters: number;
}

export interface PageFetchOptions {
  /** Connect, and the whole fetch (every redirect hop and the full body), must finish within this. */
  timeoutMs: number;
  /** Largest body read (after decompression); a bigger page is page_too_large. */
  maxBytes: number;
  /** Off: hosts on loopback, private, link-local, CGNAT, unique-local, multicast or unspecified addresses are refused. */
  allowPrivateHosts: boolean;
  /** Redirects followed (default 5); each hop is checked like the first URL. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

const READABLE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REQUEST_HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; WorkyardResearch/1.0)',
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en;q=0.9, *;q=0.5',
};

/**
 * GETs a web page and reduces it to readable text. Redirects are followed by hand so each hop passes the address
 * rule; the body streams in and stops past `maxBytes`; only HTML and plain text are read. Every failure is a coded
 * ProviderError (provider 'page'); a cancelled `signal` rethrows its reason.
 */
export async function fetchReadablePage(url: string, options: PageFetchOptions): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, ...(options.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  let host = hostOf(url);
  try {
    const { response, finalUrl } = await followRedirects(url, agent, signal, options, (h) => {
      host = h;
    });
    return await readPage(url, finalUrl, response, options.maxBytes);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw pageError(err, host, deadline.aborted);
  } finally {
    agent.destroy().catch(() => {});
  }
}

async function followRedirects(
  url: string,
  agent: Dispatcher,
  signal: AbortSignal,
  options: PageFetchOptions,
  onHost: (host: string) => void,
): Promise<{ response: Dispatcher.ResponseData; finalUrl: string }> {
  const maxRedirects = options.maxRedirects ?? 5;
  let current = checkedUrl(url, options.allowPrivateHosts);
  for (let hop = 0; ; hop += 1) {
    onHost(current.host);
    const response = await request(current, { method: 'GET', headers: REQUEST_HEADERS, dispatcher: agent, signal });
    const location = headerValue(response.headers.location);
    if (!REDIRECT_STATUSES.has(response.statusCode) || !location) return { response, finalUrl: current.href };
    await response.body.dump();
    if (hop >= maxRedirects) {
      throw new ProviderError(
        'page',
        'page_too_many_redirects',
        `page at ${current.host} redirected more than ${maxRedirects} times`,
        false,
      );
    }
    current = checkedUrl(new URL(location, current).href, options.allowPrivateHosts);
  }
}

async function readPage(url: string, finalUrl: string, response: Dispatcher.ResponseData, maxBytes: number): Promise<FetchedPage> {
  const host = new URL(finalUrl).host;
  const status = response.statusCode;
  const body = okBody(response, host);
  const contentTypeHeader = headerValue(response.headers['content-type']) ?? '';
  const declared = contentTypeHeader.split(';')[0].trim().toLowerCase();
  if (declared && !READABLE_TYPES.has(declared)) {
    discard(body);
    throw notReadable(host, declared);
  }
  const length = Number(headerValue(response.headers['content-length']));
  if (Number.isFinite(length) && length > maxBytes) {
    discard(body);
    throw tooLarge(host, maxBytes);
  }
  const bytes = await readLimitedBody(body, headerValue(response.headers['content-encoding']), maxBytes);
  const contentType = declared || sniffType(bytes);
  if (!contentType) throw notReadable(host, 'an unknown type');
  const decoded = decodeBody(bytes, contentTypeHeader, contentType !== 'text/plain');
  const { title, text } =
    contentType === 'text/plain' ? { title: null, text: decoded.replace(/\r\n?/g, '\n').trim() } : readableText(decoded, finalUrl);
  return { url, finalUrl, status, contentType, title, text, characters: text.length };
}

/** A URL we may request: http(s), no credentials, and (unless private hosts are allowed) not a private IP literal. */
export function checkedUrl(raw: string, allowPrivateHosts: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderError('page', 'page_bad_url', 'page URL is not a valid absolute URL', false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderError('page', 'page_bad_url', `page URL scheme ${url.protocol.slice(0, 20)} is not http or https`, false);
  }
  if (url.username || url.password) throw new ProviderError('page', 'page_bad_url', 'page URL must not carry credentials', false);
  // Host names are checked when they resolve (publicOnlyLookup); IP literals never resolve, so they are checked here.
  const kind = allowPrivateHosts ? null : blockedAddressKind(url.hostname);
  if (kind && kind !== 'invalid') throw blockedHost(url.host, kind);
  return url;
}

export function pageError(err: unknown, host: string, timedOut: boolean): ProviderError {
  if (err instanceof ProviderError) return err;
  if (timedOut) return new ProviderError('page', 'page_timeout', `page at ${host} did not load in time`, true);
  if (err instanceof BodyTooLarge) return tooLarge(host);
  if (err instanceof UnsupportedEncoding) return new ProviderError('page', 'page_failed', `page at ${host} used an ${err.message}`, false);
  const cause = codedCause(err);
  const code = cause?.code ?? '';
  if (code === BLOCKED_HOST_CODE) return blockedHost(host, cause?.kind ?? 'non-public');
  if (/^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code)) {
    return new ProviderError('page', 'page_timeout', `page at ${host} did not load in time`, true);
  }
  if (code === 'ENOTFOUND') return new ProviderError('page', 'page_failed', `page host ${host} was not found`, false);
  return new ProviderError('page', 'page_failed', `page at ${host} could not be read (${code || 'network error'})`, true);
}

/** undici wraps socket errors; the code that explains the failure may sit on a cause. */
function codedCause(err: unknown): { code: string; kind?: string } | undefined {
  for (
    let e = err as { code?: unknown; kind?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth += 1
  ) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return { code: e.code, kind: e.kind };
  }
  return undefined;
}

const blockedHost = (host: string, kind: string) =>
  new ProviderError(
    'page',
    'page_blocked_host',
    `page host ${host} is a ${kind.replace('_', '-')} address; private hosts are not fetched`,
    false,
  );
const notReadable = (host: string, type: string) =>
  new ProviderError('page', 'page_not_html', `page at ${host} is ${type.slice(0, 60)}, not HTML or text`, false);
const tooLarge = (host: string, maxBytes?: number) =>
  new ProviderError('page', 'page_too_large', `page at ${host} is larger than ${maxBytes ? `${maxBytes} bytes` : 'the size limit'}`, false);

/** Drops a body we will not read; its abort error has no reader to go to. */
/** The body of a 2xx answer; any other status is discarded and thrown as `page_status` (5xx and 429 retryable). */
export function okBody(response: Dispatcher.ResponseData, host: string): Readable {
  const body = response.body as unknown as Readable;
  const status = response.statusCode;
  if (status >= 200 && status <= 299) return body;
  discard(body);
  throw new ProviderError('page', 'page_status', `page at ${host} answered ${status}`, status >= 500 || status === 429, status);
}

export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}
