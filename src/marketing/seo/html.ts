import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

/**
 * What the SEO rules look at in a stored article body: headings, paragraphs, images, links and visible text.
 * The body is parsed by parse5, the WHATWG-conformant HTML parser, so unclosed tags, entities, comments and
 * script/style contents are read exactly as a browser reads them.
 */

export interface Heading {
  level: number;
  text: string;
}
export interface Image {
  src: string | null;
  alt: string | null;
}
export interface Link {
  href: string | null;
  text: string;
  named: boolean;
}

export interface BodyOutline {
  headings: Heading[];
  /** Visible text of each `<p>`, in order, empty ones left out. */
  paragraphs: string[];
  images: Image[];
  links: Link[];
  /** Visible text, one line per block element. */
  text: string;
}

type Fragment = DefaultTreeAdapterMap['documentFragment'];
type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'textarea', 'title']);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'li',
  'ul',
  'ol',
  'br',
  'hr',
  'blockquote',
  'pre',
  'table',
  'tr',
  'td',
  'th',
  'figure',
  'figcaption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'footer',
  'aside',
  'dd',
  'dt',
]);

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const isElement = (node: Node): node is Element => 'tagName' in node;
const childrenOf = (node: Node | Fragment): Node[] => ('childNodes' in node ? node.childNodes : []);

function attribute(el: Element, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

/** Visible text below a node, with a line break around each block element. */
function textOf(node: Node | Fragment): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  const element = 'tagName' in node ? node : null;
  if (element && HIDDEN.has(element.tagName)) return '';
  const inner = childrenOf(node).map(textOf).join('');
  return element && BLOCKS.has(element.tagName) ? `\n${inner}\n` : inner;
}

export function readBody(html: string | null | undefined): BodyOutline {
  const out: BodyOutline = { headings: [], paragraphs: [], images: [], links: [], text: '' };
  const fragment = parseFragment(html ?? '');
  const visit = (node: Node) => {
    if (!isElement(node)) return;
    const tag = node.tagName;
    if (HIDDEN.has(tag)) return;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) out.headings.push({ level: Number(heading[1]), text: squash(textOf(node)) });
    else if (tag === 'p') {
      const text = squash(textOf(node));
      if (text) out.paragraphs.push(text);
    } else if (tag === 'a') {
      out.links.push({
        href: attribute(node, 'href'),
        text: squash(textOf(node)),
        named: attribute(node, 'name') !== null || attribute(node, 'id') !== null,
      });
    } else if (tag === 'img') out.images.push({ src: attribute(node, 'src'), alt: attribute(node, 'alt') });
    node.childNodes.forEach(visit);
  };
  fragment.childNodes.forEach(visit);
  out.text = textOf(fragment).split('\n').map(squash).filter(Boolean).join('\n');
  return out;
}
