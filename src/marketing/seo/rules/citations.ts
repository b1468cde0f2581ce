import { scanCitations } from '../citations';
import { clip } from '../text';
import { error, type SeoFinding, type SeoRule } from '../types';

/** A footnote reference without its definition, or a placeholder marker, would publish as a broken promise: errors. */
export const citationRules: SeoRule = ({ item, body }) => {
  const findings: SeoFinding[] = [];
  const scan = scanCitations(body.text);
  for (const id of scan.unresolved) {
    findings.push(error('body', 'citation_unresolved', `The citation [^${clip(id)}] has no definition "[^${clip(id)}]: …" in the body.`));
  }
  for (const marker of scan.placeholders) {
    findings.push(error('body', 'citation_placeholder', `The body still holds the placeholder ${clip(marker)}.`));
  }
  for (const field of ['title', 'meta_title', 'meta_description'] as const) {
    for (const marker of scanCitations(item[field] ?? '').placeholders) {
      findings.push(error(field, 'citation_placeholder', `The ${field} still holds the placeholder ${clip(marker)}.`));
    }
  }
  return findings;
};
