import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import type { BodySection } from '../../../workflows/contentImages.contract';

/** One H2 of a body and what lies below it, with the source offsets placement needs. */
export interface SectionInfo extends BodySection {
  /** Visible text between this H2 and the next one (or the end of the body), whitespace squashed. */
  text: string;
  /** Offset of `<h2` in the body. */
  headingStart: number;
  /** Offset just after the H2's `</h2>` (after its content when the tag was never closed). */
  headingEnd: number;
}

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'textarea', 'title']);
const IMAGES = new Set(['img', 'picture']);

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const isElement = (node: ChildNode): node is Element => 'tagName' in node;

function textOf(node: ChildNode): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (!isElement(node) || HIDDEN.has(node.tagName)) return '';
  return (node.tagName === 'br' ? ' ' : '') + node.childNodes.map(textOf).join('');
}

/**
 * Every H2 of an article body (nested ones too, in document order) with the text below it and whether an image already
 * sits there: an `<img>`, a `<picture>`, or an `<svg>` inside a `<figure>`, up to the next H2 or the end of the body.
 */
export function bodySections(html: string): SectionInfo[] {
  const sections: SectionInfo[] = [];
  const texts: string[][] = [];

  const visit = (node: ChildNode, inFigure: boolean): void => {
    const current = sections.at(-1);
    if (node.nodeName === '#text') {
      if (current) texts[texts.length - 1].push((node as DefaultTreeAdapterMap['textNode']).value);
      return;
    }
    if (!isElement(node) || HIDDEN.has(node.tagName)) return;
    if (node.tagName === 'h2') {
      const location = node.sourceCodeLocation!;
      sections.push({
        index: sections.length,
        heading: squash(textOf(node)),
        has_image: false,
        text: '',
        headingStart: location.startOffset,
        headingEnd: location.endOffset,
      });
      texts.push([]);
      return;
    }
    if (current && (IMAGES.has(node.tagName) || (inFigure && node.tagName === 'svg'))) current.has_image = true;
    if (current && BLOCK_BREAK.has(node.tagName)) texts[texts.length - 1].push(' ');
    visitChildren(node, inFigure || node.tagName === 'figure');
  };
  const visitChildren = (parent: ParentNode, inFigure: boolean) => {
    for (const child of parent.childNodes) visit(child, inFigure);
  };

  visitChildren(parseFragment(html, { sourceCodeLocationInfo: true }), false);
  sections.forEach((section, i) => (section.text = squash(texts[i].join(''))));
  return sections;
}

/** Elements whose start separates words even without whitespace in the source (`<p>a</p><p>b</p>`). */
const BLOCK_BREAK = new Set([
  'p',
  'div',
  'li',
  'br',
  'td',
  'th',
  'tr',
  'blockquote',
  'h1',
  'h3',
  'h4',
  'h5',
  'h6',
  'figcaption',
  'dd',
  'dt',
  'pre',
  'section',
]);

/** How placement and planning compare heading texts: case, spacing and Unicode forms aside. */
export function normalizedHeading(text: string): string {
  return squash(text.normalize('NFKC')).toLowerCase();
}

/** Words of a text (runs of letters and digits). */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}
