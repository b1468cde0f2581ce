import { randomUUID } from 'node:crypto';

export interface StoredResult {
  title: string;
  url: string;
  description?: string;
}

/** A Brave-style error body (`type: ErrorResponse`). */
export function errorBody(status: number, code: string, detail: string, meta: Record<string, unknown> = {}) {
  return { type: 'ErrorResponse', error: { id: randomUUID(), status, code, detail, meta }, time: Math.floor(Date.now() / 1000) };
}

/** A Brave-style web search answer; `web` is left out when nothing matched, as the API does. */
export function searchBody(q: string, results: StoredResult[]) {
  const body: Record<string, unknown> = {
    type: 'search',
    query: {
      original: q,
      show_strict_warning: false,
      is_navigational: false,
      spellcheck_off: true,
      country: 'us',
      more_results_available: false,
    },
    mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
  };
  if (results.length > 0) {
    body.web = { type: 'search', results: results.map((r) => webResult(q, r)), family_friendly: true };
  }
  return body;
}

function webResult(q: string, result: StoredResult) {
  const url = new URL(result.url);
  return {
    type: 'search_result',
    title: result.title,
    url: result.url,
    is_source_local: false,
    is_source_both: false,
    description: highlighted(result.description ?? '', q),
    language: 'en',
    family_friendly: true,
    profile: { name: url.hostname, url: url.origin, long_name: url.hostname, img: '' },
    meta_url: {
      scheme: url.protocol.replace(':', ''),
      netloc: url.host,
      hostname: url.hostname,
      favicon: '',
      path: url.pathname === '/' ? '' : `› ${url.pathname.slice(1).replace(/\//g, ' › ')}`,
    },
  };
}

/** The API sends descriptions as HTML: entities escaped and the query's words in `<strong>`. */
function highlighted(text: string, q: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#x27;');
  const words = (q.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return escaped;
  return escaped.replace(new RegExp(`\\b(${words.join('|')})\\b`, 'giu'), '<strong>$1</strong>');
}
