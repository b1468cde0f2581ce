import assert from 'node:assert/strict';
import { quoteInPassage } from '../../../src/research/claims/quotes';

const passage =
  'The report says \u201cheat pumps cut bills by 40%\u201d \u2014 a finding that held in 2019\u20132023.\nOwners\u2019 satisfaction\u00a0rose  too.';

describe('verbatim quote check (quoteInPassage)', () => {
  it('an exact slice of the passage is found', () => {
    assert.equal(quoteInPassage('a finding that held in', passage), true);
  });

  it('whitespace runs, line breaks and non-breaking spaces compare as one space', () => {
    assert.equal(quoteInPassage('2019\u20132023. Owners\u2019 satisfaction rose too.', passage), true);
    assert.equal(quoteInPassage('satisfaction   rose\ttoo', passage), true);
  });

  it('curly and straight quotation marks compare equal', () => {
    assert.equal(quoteInPassage('"heat pumps cut bills by 40%"', passage), true);
    assert.equal(quoteInPassage("Owners' satisfaction", passage), true);
    assert.equal(quoteInPassage('\u2018heat', "It said 'heat pumps'"), true);
  });

  it('dashes (en, em, minus, hyphen) compare equal', () => {
    assert.equal(quoteInPassage('held in 2019-2023', passage), true);
    assert.equal(quoteInPassage('40%" - a finding', passage), true);
    assert.equal(quoteInPassage('\u22125 degrees', 'It fell to -5 degrees.'), true);
  });

  it('is case-sensitive and changes nothing else: other words, letters or punctuation are not found', () => {
    assert.equal(quoteInPassage('Heat pumps cut bills by 40%', passage), false);
    assert.equal(quoteInPassage('heat pumps cut bills by 45%', passage), false);
    assert.equal(quoteInPassage('heat pumps cut bills\u2026', passage), false);
    assert.equal(quoteInPassage('heat pumps cut energy bills by 40%', passage), false);
  });

  it('an empty or blank quote is never found', () => {
    assert.equal(quoteInPassage('', passage), false);
    assert.equal(quoteInPassage(' \n\t ', passage), false);
  });
});
