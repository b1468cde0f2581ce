import assert from 'node:assert/strict';
import { MAX_PASSAGE, MIN_PASSAGE, splitPassages, textOfJson } from '../../src/knowledge/passages';

/** A sentence of about `length` characters ending with a full stop. */
const sentence = (n: number, length = 120) =>
  `Sentence ${n} ${'word '.repeat(Math.ceil((length - 14) / 5))}`.slice(0, length - 1).trimEnd() + '.';
const paragraph = (sentences: number, from = 0, length = 120) =>
  Array.from({ length: sentences }, (_, i) => sentence(from + i, length)).join(' ');

describe('Knowledge passages (splitPassages)', () => {
  it('a paragraph that fits in 1,200 characters stays whole, with its whitespace normalised', () => {
    const text = `  First   line of\tthe paragraph\nstill the same paragraph.  ${paragraph(3)}  `;
    const passages = splitPassages(text);
    assert.equal(passages.length, 1);
    assert.equal(passages[0], `First line of the paragraph still the same paragraph. ${paragraph(3)}`);
  });

  it('long paragraphs are split at sentence ends into passages of about 300 to 1,200 characters, in order', () => {
    const long = paragraph(40); // ~4,800 characters
    const passages = splitPassages(long);
    assert.ok(passages.length >= 4, `got ${passages.length}`);
    for (const p of passages) {
      assert.ok(p.length >= MIN_PASSAGE && p.length <= MAX_PASSAGE, `passage of ${p.length} characters`);
      assert.match(p, /^Sentence \d+ .*\.$/, 'each passage starts and ends at a sentence boundary');
    }
    assert.equal(passages.join(' '), long, 'the passages, joined, are the paragraph');
  });

  it('the last piece of a split paragraph is not left tiny when it fits with the one before', () => {
    const passages = splitPassages(`${paragraph(10)} Short end.`); // 1,200 + 11 characters
    assert.ok(passages.every((p) => p.length <= MAX_PASSAGE));
    assert.ok(passages.at(-1)!.length >= MIN_PASSAGE, `last passage has ${passages.at(-1)!.length} characters`);
  });

  it('short paragraphs (headings, list items) are gathered into one passage while it stays under 1,200 characters', () => {
    const text = 'Pricing\n\n- Starter plan\n- Growth plan\n\n' + paragraph(2) + '\n\n' + paragraph(9, 100);
    const passages = splitPassages(text);
    assert.equal(passages.length, 2);
    assert.equal(passages[0], `Pricing\n\n- Starter plan - Growth plan\n\n${paragraph(2)}`);
    assert.equal(passages[1], paragraph(9, 100));
  });

  it('a run of text with no sentence end is cut between words, never over 1,200 characters', () => {
    const words = 'lorem '.repeat(700).trim(); // 4,199 characters, no full stop
    const passages = splitPassages(words);
    assert.ok(passages.length >= 4);
    for (const p of passages) {
      assert.ok(p.length <= MAX_PASSAGE);
      assert.match(p, /^lorem( lorem)*$/, 'cut between words');
    }
  });

  it('never yields an empty passage: blank text, whitespace and blank lines give none', () => {
    assert.deepEqual(splitPassages(''), []);
    assert.deepEqual(splitPassages(' \n\n\t \r\n\r\n '), []);
    const passages = splitPassages('\n\n\nOne.\n\n\n\n\nTwo.\n\n');
    assert.deepEqual(passages, ['One.\n\nTwo.']);
  });

  it('the text of a JSON value is its string values, depth first, one paragraph each', () => {
    const text = textOfJson({
      title: 'Brief',
      claims: [{ quote: 'A verbatim quote.', n: 3 }, { quote: 'Another.' }],
      ok: true,
      none: null,
    });
    assert.equal(text, 'Brief\n\nA verbatim quote.\n\nAnother.');
  });
});
