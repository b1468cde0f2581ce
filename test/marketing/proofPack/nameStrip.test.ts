import assert from 'node:assert/strict';
import { namesAPerson, stripNames } from '../../../src/marketing/proofPack/nameStrip';
import { clipAtWord } from '../../../src/marketing/proofPack/clip';

describe('proof pack name stripping (the fallback)', () => {
  it("removes the source person's full name and each part, whatever the case", () => {
    const out = stripNames('Jane Doe called. JANE says doe’s crew is slow; Janet is fine.', ['Jane Doe']);
    assert.equal(out, 'the customer called. the customer says the customer’s crew is slow; Janet is fine.');
    assert.equal(namesAPerson(out, ['Jane Doe']), false);
  });

  it('removes emails, links, phone numbers and @handles, and keeps years and small numbers', () => {
    const out = stripNames(
      'Mail a.b@c.test, see https://x.test/p or www.y.test, ring +44 (20) 7946 0958, ping @crewboss; since 2019 we lost 3 hours.',
      [],
    );
    assert.equal(out, 'Mail [removed], see [removed] or [removed], ring [removed], ping [removed]; since 2019 we lost 3 hours.');
  });

  it('removes a capitalised name after a greeting or sign-off, and keeps company names', () => {
    const out = stripNames("Hi Mark, I'm Olaf Berg from Roof Co. Thanks, Peter — Anna", []);
    assert.equal(out, "Hi the customer, I'm the customer from Roof Co. Thanks, the customer — the customer");
  });

  it('names with letters outside ASCII are found on word boundaries', () => {
    assert.equal(stripNames('Zoë Ångström wrote; Ångströms is a brand.', ['Zoë Ångström']), 'the customer wrote; Ångströms is a brand.');
  });

  it('a text over 600 characters is cut at a word with an ellipsis', () => {
    const cut = clipAtWord(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '));
    assert.ok([...cut].length <= 600);
    assert.match(cut, / w\d+…$/);
  });
});
