/** Passages aim for this band: long enough to carry a fact with its context, short enough to rank sharply. */
export const MIN_PASSAGE = 300;
export const MAX_PASSAGE = 1200;

/** A sentence ends at . ! ? or … (and any closing quotes or brackets) followed by whitespace. */
const SENTENCE_END = /(?<=[.!?…]["'”’)\]]*)\s+/u;

const paragraphsOf = (text: string): string[] =>
  text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0);

/** A run of text with no sentence end inside MAX_PASSAGE: cut at the last space that fits, or hard at the limit. */
function cutAtWords(text: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > MAX_PASSAGE) {
    const space = rest.lastIndexOf(' ', MAX_PASSAGE);
    const cut = space >= MIN_PASSAGE ? space : MAX_PASSAGE;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** Packs a long paragraph's sentences into pieces of about equal length, none over MAX_PASSAGE. */
function splitLongParagraph(paragraph: string): string[] {
  const sentences = paragraph.split(SENTENCE_END).flatMap(cutAtWords);
  const target = Math.max(MIN_PASSAGE, Math.ceil(paragraph.length / Math.ceil(paragraph.length / MAX_PASSAGE)));
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && (current.length >= target || current.length + 1 + sentence.length > MAX_PASSAGE)) {
      pieces.push(current);
      current = '';
    }
    current = current ? `${current} ${sentence}` : sentence;
  }
  if (current) pieces.push(current);
  const last = pieces.length - 1;
  if (last > 0 && pieces[last].length < MIN_PASSAGE && pieces[last - 1].length + 1 + pieces[last].length <= MAX_PASSAGE) {
    pieces.splice(last - 1, 2, `${pieces[last - 1]} ${pieces[last]}`);
  }
  return pieces;
}

/**
 * Splits text into search passages, in order (a passage's index is its position). Whitespace is normalised: one
 * space inside a paragraph, one blank line between paragraphs a passage holds. A paragraph that fits in
 * MAX_PASSAGE stays whole; a longer one is split at sentence ends; a passage under MIN_PASSAGE takes in the
 * following paragraphs while it still fits, so headings and list items are not passages of their own.
 */
export function splitPassages(text: string): string[] {
  const units = paragraphsOf(text).flatMap((p) => (p.length <= MAX_PASSAGE ? [p] : splitLongParagraph(p)));
  const passages: string[] = [];
  for (const unit of units) {
    const last = passages.length - 1;
    if (last >= 0 && passages[last].length < MIN_PASSAGE && passages[last].length + 2 + unit.length <= MAX_PASSAGE) {
      passages[last] = `${passages[last]}\n\n${unit}`;
    } else {
      passages.push(unit);
    }
  }
  return passages;
}

/** The text of a JSON value: its string values, depth first, one paragraph each. */
export function textOfJson(value: unknown): string {
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return strings.join('\n\n');
}
