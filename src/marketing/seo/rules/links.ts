import { clip } from '../text';
import { error, warn, type SeoFinding, type SeoRule } from '../types';
import type { Link } from '../html';
import { httpUrl } from './canonical';

type Kind = 'internal' | 'outbound' | 'other' | 'empty' | 'unsafe';

/**
 * Internal: a site-relative or relative path, or an absolute URL on the canonical URL's host. Outbound: an absolute
 * (or protocol-relative) http(s) URL on another host. Other: in-page `#anchors`, mailto:, tel:.
 */
function kindOf(href: string, ownHost: string | null): Kind {
  const h = href.trim();
  if (h === '' || h === '#') return 'empty';
  if (/^\s*(javascript|data|vbscript):/i.test(h)) return 'unsafe';
  if (h.startsWith('#') || /^(mailto|tel|sms):/i.test(h)) return 'other';
  const absolute = httpUrl(h.startsWith('//') ? `https:${h}` : h);
  if (absolute) return ownHost && absolute.hostname === ownHost ? 'internal' : 'outbound';
  if (/^[a-z][a-z0-9+.-]*:/i.test(h)) return 'other';
  return 'internal';
}

const describe = (l: Link) => (l.text ? `"${clip(l.text, 40)}"` : 'without text');

export const linkRules: SeoRule = ({ item, body }) => {
  const findings: SeoFinding[] = [];
  const ownHost = httpUrl(item.canonical_url)?.hostname ?? null;
  const seen = new Set<Kind>();
  for (const link of body.links) {
    if (link.href === null && link.named) continue; // <a id="…"> / <a name="…"> is an anchor target, not a link
    const kind = link.href === null ? 'empty' : kindOf(link.href, ownHost);
    seen.add(kind);
    if (kind === 'empty') findings.push(error('body', 'link_href_empty', `The link ${describe(link)} has an empty href.`));
    if (kind === 'unsafe') findings.push(error('body', 'link_href_unsafe', `The link ${describe(link)} uses a script or data URL.`));
  }
  if (body.text) {
    if (!seen.has('internal')) findings.push(warn('body', 'no_internal_links', 'The body links to no other page of the site.'));
    if (!seen.has('outbound')) findings.push(warn('body', 'no_outbound_links', 'The body links to no outside source.'));
  }
  return findings;
};
