import { z } from 'zod';

/**
 * The page a route answers in place of its JSON when the request's `Accept` asks for text/html (a person's browser
 * following a link or a redirect). A response lists it as its `text/html` media type beside its JSON
 * (`otherMediaTypes: HTML_PAGE`), so the page a handler answers is checked against the route too.
 */
export const htmlPageSchema = z.string().meta({ id: 'HtmlPage', description: 'A page for a person, when `Accept` asks for text/html.' });

export const HTML_PAGE = { 'text/html': htmlPageSchema };

/** The headers of such a page: HTML, never stored by a cache (it may name what the person just connected). */
export const HTML_PAGE_HEADERS: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
