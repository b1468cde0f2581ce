import { z } from 'zod';

/**
 * The page a route answers in place of its JSON when the request's `Accept` asks for text/html (a person's browser
 * following a link or a redirect). A response lists it beside its JSON shape, so the page a handler answers is
 * checked against the route too.
 */
export const htmlPageSchema = z
  .string()
  .meta({ id: 'HtmlPage', description: 'When `Accept` asks for text/html: a page for a person, sent as `text/html` (not JSON).' });

/** The headers of such a page: HTML, never stored by a cache (it may name what the person just connected). */
export const HTML_PAGE_HEADERS: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
