import type { BrandColor, BrandGuideFields } from './store';

export const EMPTY_GUIDE: BrandGuideFields = { voice: null, visual_style: null, colors: [], avoid: [], primary_logo_asset_id: null };

const isSet = (v: unknown) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0);

/**
 * The guide that applies, field by field: each field the project's own guide sets (text, a non-empty list, a logo)
 * wins; a field it leaves unset falls back to the account's guide.
 */
export function effectiveGuide(account: BrandGuideFields | undefined, project: BrandGuideFields | undefined): BrandGuideFields {
  const base = account ?? EMPTY_GUIDE;
  if (!project) return { ...base };
  const pick = <K extends keyof BrandGuideFields>(k: K): BrandGuideFields[K] => (isSet(project[k]) ? project[k] : base[k]);
  return {
    voice: pick('voice'),
    visual_style: pick('visual_style'),
    colors: pick('colors'),
    avoid: pick('avoid'),
    primary_logo_asset_id: pick('primary_logo_asset_id'),
  };
}

/**
 * Guide text as plain prose for an image prompt: markdown and HTML marks (headings, list markers, emphasis, code,
 * links, tags) are dropped and whitespace collapses; one entry per line that still holds a letter or digit.
 */
function plainLines(text: string): string[] {
  return text
    .replace(/```[^\n]*/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .split(/\r?\n/)
    .map((line) =>
      line
        .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d+[.)]\s+)+/, '')
        .replace(/[*`~|]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => /[\p{L}\p{N}]/u.test(line));
}

/** Starts the text with a capital and ends it with a full stop unless it already ends a sentence. */
function sentence(s: string): string {
  const capital = s.charAt(0).toLocaleUpperCase('en') + s.slice(1);
  return /[.!?…]["')\]]?$/u.test(capital) ? capital : `${capital}.`;
}

/** Each line of the text as a sentence, joined by spaces. */
export const plainSentences = (text: string): string => plainLines(text).map(sentence).join(' ');

function colourSentence(colors: BrandColor[]): string {
  const names = colors.map((c) => {
    const name = plainLines(c.name ?? '').join(' ');
    return name ? `${name} (${c.hex})` : c.hex;
  });
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Use the brand colours ${list}.`;
}

/**
 * The prompt block: the visual style, then the voice as the mood to convey, then the colours, in plain sentences;
 * "" when the guide sets none of them. The avoid list is not repeated here (the caller gets it as `avoid_list`).
 */
export function promptBlock(guide: BrandGuideFields): string {
  const parts: string[] = [];
  if (guide.visual_style) parts.push(`Visual style: ${plainSentences(guide.visual_style)}`);
  if (guide.voice) parts.push(`The images should convey the brand's voice: ${plainSentences(guide.voice)}`);
  if (guide.colors.length > 0) parts.push(colourSentence(guide.colors));
  return parts.filter((p) => !/:\s*$/.test(p)).join(' ');
}
