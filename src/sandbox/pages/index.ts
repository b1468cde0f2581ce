import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { escapeHtml } from './article';
import { sendRaw, startLoopbackServer, type LoopbackServer } from './loopback';

export { articleHtml } from './article';

export interface Page {
  html?: string;
  text?: string;
  /** Default 200 (302 with `redirectTo`). */
  status?: number;
  /** Default `text/html; charset=utf-8` (`text/plain; charset=utf-8` for `text`); '' sends no Content-Type. */
  contentType?: string;
  /** Milliseconds before the answer's headers. */
  delayMs?: number;
  /** Milliseconds between the headers and the body (a body that arrives late). */
  bodyDelayMs?: number;
  /** Answers a redirect to this URL or path. */
  redirectTo?: string;
  /** Streams an HTML body of this many bytes, without Content-Length (for size limits). */
  bytes?: number;
  /** Sends the body gzip-compressed (Content-Encoding: gzip). */
  gzip?: boolean;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  url(path: string): string;
  setPage(path: string, page: Page): void;
  /** Requests received for `path` (its pathname, query ignored). */
  hits(path: string): number;
  stop(): Promise<void>;
}

/**
 * Web pages on loopback for research runs: each path answers what `setPage` gave it (status, type, charset, delay,
 * redirect, size), unknown paths a 404 page. A charset named in the Content-Type or a `<meta charset>` is the
 * encoding the body is sent in (UTF-8, or Latin-1 / Windows-1252).
 */
export async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, Page>();
  const hits = new Map<string, number>();

  async function handle(req: IncomingMessage, res: ServerResponse, loopback: LoopbackServer): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', loopback.origin);
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const page = pages.get(pathname);
    if (!page)
      return sendRaw(res, 404, '<!doctype html><title>Not found</title><h1>Not found</h1>', { 'content-type': 'text/html; charset=utf-8' });
    await loopback.wait(page.delayMs ?? 0);
    if (page.redirectTo !== undefined) {
      const status = page.status && page.status >= 300 && page.status < 400 ? page.status : 302;
      return sendRaw(res, status, '', { location: page.redirectTo });
    }
    const status = page.status ?? 200;
    const contentType =
      page.contentType ?? (page.html === undefined && page.text !== undefined ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8');
    const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
    if (page.bytes !== undefined) return streamFiller(res, status, headers, page.bytes);
    const source = page.html ?? page.text ?? '';
    let body = encode(source, contentType);
    if (page.gzip) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    if (!page.bodyDelayMs) return sendRaw(res, status, body, headers);
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.flushHeaders();
    await loopback.wait(page.bodyDelayMs);
    if (!res.destroyed) res.end(body);
  }

  const server = await startLoopbackServer(handle);
  return {
    origin: server.origin,
    url: (path) => `${server.origin}${path.startsWith('/') ? path : `/${path}`}`,
    setPage: (path, page) => void pages.set(new URL(path, server.origin).pathname, { ...page }),
    hits: (path) => hits.get(new URL(path, server.origin).pathname) ?? 0,
    stop: () => server.stop(),
  };
}

/** The page text in the charset its Content-Type or `<meta charset>` names (Latin-1 family or UTF-8). */
function encode(source: string, contentType: string): Buffer {
  const charset =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]*charset\s*=\s*["']?([\w.:-]+)/i.exec(source)?.[1] ?? 'utf-8';
  return /^(iso-8859-1|latin1|windows-1252|cp1252|us-ascii)$/i.test(charset) ? Buffer.from(source, 'latin1') : Buffer.from(source, 'utf8');
}

/** An HTML page of exactly `bytes` bytes sent in chunks; stops when the client hangs up. */
async function streamFiller(res: ServerResponse, status: number, headers: Record<string, string>, bytes: number): Promise<void> {
  res.writeHead(status, headers);
  const head = Buffer.from(`<!doctype html><html><head><title>${escapeHtml('Large page')}</title></head><body><p>`);
  const tail = Buffer.from('</p></body></html>');
  const filler = Buffer.alloc(16 * 1024, 'Lorem ipsum dolor sit amet 42. ');
  let left = Math.max(0, bytes - head.length - tail.length);
  if (!res.write(head)) await drained(res);
  while (left > 0 && !res.destroyed) {
    const chunk = filler.subarray(0, Math.min(left, filler.length));
    left -= chunk.length;
    if (!res.write(chunk)) await drained(res);
  }
  if (!res.destroyed) res.end(tail);
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
