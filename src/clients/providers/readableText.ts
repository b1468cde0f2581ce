import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Elements whose text is never page content (Readability keeps a small page's navigation: it is dropped here). */
const NEVER_TEXT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'head',
  'select',
  'button',
  'nav',
]);
/** Page chrome, dropped too when there is no article and the whole body is read. */
const CHROME = new Set(['header', 'footer', 'form', 'dialog']);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'body',
]);

interface DomNode {
  nodeType: number;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/**
 * The readable text of an HTML page: Mozilla Readability picks the article, then its block elements (paragraphs,
 * headings, list items, …) become paragraphs separated by blank lines. Without an article, the body's text minus
 * navigation and other page chrome. Scripts and styles never appear. `_url` is the page's address; the text does not
 * depend on it.
 */
export function readableText(html: string, _url: string): { title: string | null; text: string } {
  const { document } = parseDocument(html);
  const article = new Readability<DomNode>(document as never, { serializer: (node) => node as unknown as DomNode }).parse();
  const articleText = article?.content ? blockText(article.content, NEVER_TEXT) : '';
  const title = clean(article?.title ?? '') || clean(document.title ?? '') || null;
  if (articleText) return { title, text: articleText };

  // Readability changes the document it reads, so the fallback reads a fresh copy.
  const fresh = parseDocument(html).document;
  const body = fresh.body ?? fresh.documentElement;
  return { title: title ?? (clean(fresh.title ?? '') || null), text: body ? blockText(body, new Set([...NEVER_TEXT, ...CHROME])) : '' };
}

/** What is read of linkedom's document (the project compiles without the DOM library's types). */
interface ParsedDocument {
  title: string | null;
  body: DomNode | null;
  documentElement: DomNode | null;
}

/** linkedom builds a document only from a whole page: a fragment (or nothing) is wrapped in one. */
function parseDocument(html: string): { document: ParsedDocument } {
  return parseHTML(/<(html|body)[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`) as unknown as {
    document: ParsedDocument;
  };
}

/** Text of `root` with each block element on its own paragraph; `<br>` keeps a line break inside a paragraph. */
function blockText(root: DomNode, skip: Set<string>): string {
  const paragraphs: string[] = [];
  let current = '';
  const flush = () => {
    const text = current.split('\n').map(clean).filter(Boolean).join('\n');
    if (text) paragraphs.push(text);
    current = '';
  };
  const walk = (node: DomNode, preformatted: boolean) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        current += preformatted ? (child.textContent ?? '') : (child.textContent ?? '').replace(/\s+/g, ' ');
        continue;
      }
      const tag = child.nodeType === 1 ? (child.localName?.toLowerCase() ?? '') : '';
      if (!tag || skip.has(tag)) continue;
      if (tag === 'br') current += '\n';
      else if (tag === 'td' || tag === 'th') {
        current += ' ';
        walk(child, preformatted);
        current += ' ';
      } else if (BLOCKS.has(tag)) {
        flush();
        walk(child, preformatted || tag === 'pre');
        flush();
      } else walk(child, preformatted);
    }
  };
  walk(root, false);
  flush();
  return paragraphs.join('\n\n');
}

/** One line: whitespace runs (non-breaking spaces too) become one space, ends trimmed. */
function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
