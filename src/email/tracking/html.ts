import { html as spec, parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** An anchor whose `href` attribute (source offsets `start`..`end`) is replaced by the tracked link of `target`. */
interface AnchorEdit {
  start: number;
  end: number;
  target: string;
}

/** Where a message's html is changed for tracking: found once per message, applied per recipient. */
export interface HtmlPlan {
  /** The distinct http(s) targets of the anchors to rewrite, in document order. */
  targets: string[];
  anchors: AnchorEdit[];
  /** Where the pixel goes: before `</body>` (else `</html>`, else at the end). */
  pixelAt: number;
}

/** Anchors carrying this attribute keep their link as written. */
export const NO_TRACK_ATTRIBUTE = 'data-wy-no-track';
/** Links longer than this are left as written (a redirect to them would be refused by many browsers anyway). */
export const MAX_TRACKED_URL = 8192;

/**
 * Reads the html with parse5 (the WHATWG parser, so entities, unquoted or upper-case attributes and unclosed tags read
 * as a browser reads them) and finds every `<a href>` whose URL is absolute http(s), unless the anchor is marked
 * `data-wy-no-track` or `skip` says so (mailto:, tel:, relative and other links never are http(s)). Nothing else of the
 * html changes: the rewrite replaces those attributes' source text only.
 */
export function planHtml(html: string, options: { links: boolean; skip: (url: string) => boolean }): HtmlPlan {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const anchors: AnchorEdit[] = [];
  const targets = new Set<string>();
  let pixelAt: number | undefined;
  let htmlEnd: number | undefined;
  walk(document, (element) => {
    const location = element.sourceCodeLocation;
    if (element.tagName === 'body' && location?.endTag) pixelAt ??= location.endTag.startOffset;
    if (element.tagName === 'html' && location?.endTag) htmlEnd ??= location.endTag.startOffset;
    if (!options.links || element.tagName !== 'a' || element.namespaceURI !== spec.NS.HTML) return;
    if (element.attrs.some((a) => a.name === NO_TRACK_ATTRIBUTE)) return;
    const href = element.attrs.find((a) => a.name === 'href');
    const at = location?.attrs?.href;
    const target = href ? trackableUrl(href.value) : null;
    if (!at || !target || options.skip(target)) return;
    anchors.push({ start: at.startOffset, end: at.endOffset, target });
    targets.add(target);
  });
  return { targets: [...targets], anchors, pixelAt: pixelAt ?? htmlEnd ?? html.length };
}

/**
 * The recipient's html: each planned anchor's `href` pointing at `linkUrl(target)` (undefined: left as written), and
 * the pixel before the end of the body when `pixelSrc` is given.
 */
export function renderTracked(
  html: string,
  plan: HtmlPlan,
  pixelSrc: string | null,
  linkUrl: ((target: string) => string | undefined) | null,
): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const anchor of linkUrl ? plan.anchors : []) {
    const url = linkUrl!(anchor.target);
    if (url) edits.push({ start: anchor.start, end: anchor.end, text: `href="${escapeAttribute(url)}"` });
  }
  if (pixelSrc) edits.push({ start: plan.pixelAt, end: plan.pixelAt, text: pixelTag(pixelSrc) });
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += html.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + html.slice(at);
}

const pixelTag = (src: string) =>
  `<img src="${escapeAttribute(src)}" width="1" height="1" alt="" style="width:1px;height:1px;border:0;margin:0;padding:0" />`;

/** The URL an href names, when it is absolute http(s): as a browser would request it (URL-normalised). */
function trackableUrl(value: string): string | null {
  // Browsers strip leading and trailing ASCII whitespace from URL attributes.
  const raw = value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href.length <= MAX_TRACKED_URL ? url.href : null;
}

function walk(node: Node, visit: (element: Element) => void): void {
  if ('tagName' in node) visit(node);
  if ('childNodes' in node) for (const child of node.childNodes) walk(child, visit);
  if ('content' in node) walk(node.content, visit);
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
