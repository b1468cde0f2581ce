import { Agent, request, type Dispatcher } from 'undici';
import { ProviderError } from './errors';
import { BodyTooLarge, decodeBody, readLimitedBody } from './pageBody';
import { checkedUrl, discard, headerValue, okBody, pageError, type PageFetchOptions } from './pageFetch';
import { publicOnlyLookup } from './safeLookup';

export interface FetchedText {
  url: string;
  finalUrl: string;
  status: number;
  /** The declared media type, lowercased, without parameters ('' when none). */
  contentType: string;
  /** The body decoded to text, unchanged (no reduction to readable text). */
  body: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TEXT_TYPE = /^(text\/[\w.+-]+|application\/(xml|xhtml\+xml|[\w.-]+\+xml))$/;

/**
 * GETs a text or XML document (a sitemap, a page's raw HTML) with the same safety as fetchReadablePage: each redirect
 * hop is checked, host names must resolve to public addresses at connect time (unless allowPrivateHosts), one deadline
 * covers every hop and the body, and reading stops past maxBytes. Failures are the page fetch's coded ProviderErrors.
 */
export async function fetchTextDocument(url: string, options: PageFetchOptions & { accept: string }): Promise<FetchedText> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, ...(options.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  let host = '';
  try {
    let current = checkedUrl(url, options.allowPrivateHosts);
    let response: Dispatcher.ResponseData;
    for (let hop = 0; ; hop += 1) {
      host = current.host;
      const headers = {
        'user-agent': 'Mozilla/5.0 (compatible; WorkyardSiteLinks/1.0)',
        accept: options.accept,
        'accept-encoding': 'gzip, deflate, br',
      };
      response = await request(current, { method: 'GET', headers, dispatcher: agent, signal });
      const location = headerValue(response.headers.location);
      if (!REDIRECT_STATUSES.has(response.statusCode) || !location) break;
      await response.body.dump();
      if (hop >= (options.maxRedirects ?? 5)) {
        throw new ProviderError('page', 'page_too_many_redirects', `page at ${current.host} redirected too many times`, false);
      }
      current = checkedUrl(new URL(location, current).href, options.allowPrivateHosts);
    }
    return await readText(url, current.href, response, options.maxBytes);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (err instanceof BodyTooLarge)
      throw new ProviderError('page', 'page_too_large', `page at ${host} is larger than ${options.maxBytes} bytes`, false);
    throw pageError(err, host || 'an invalid URL', deadline.aborted);
  } finally {
    agent.destroy().catch(() => {});
  }
}

async function readText(url: string, finalUrl: string, response: Dispatcher.ResponseData, maxBytes: number): Promise<FetchedText> {
  const host = new URL(finalUrl).host;
  const status = response.statusCode;
  const body = okBody(response, host);
  const header = headerValue(response.headers['content-type']) ?? '';
  const contentType = header.split(';')[0].trim().toLowerCase();
  if (contentType && !TEXT_TYPE.test(contentType)) {
    discard(body);
    throw new ProviderError('page', 'page_not_html', `page at ${host} is ${contentType.slice(0, 60)}, not text or XML`, false);
  }
  const bytes = await readLimitedBody(body, headerValue(response.headers['content-encoding']), maxBytes);
  return { url, finalUrl, status, contentType, body: decodeBody(bytes, header, contentType.includes('html')) };
}
