import assert from 'node:assert/strict';
import { parsePlaceholders, variableNames } from '../../../src/email/templates/placeholders';
import { escapeHtml, fill, missingNames } from '../../../src/email/templates/render';

describe('template placeholders', () => {
  it('a variable is {{name}} of letters, digits and _, in parts joined by dots; spaces inside the braces are allowed', () => {
    const { parts, invalid } = parsePlaceholders('Hi {{first_name}}, {{ user.plan2 }}!');
    assert.deepEqual(parts, ['Hi ', { name: 'first_name', raw: false }, ', ', { name: 'user.plan2', raw: false }, '!']);
    assert.deepEqual(invalid, []);
  });

  it('{{{name}}} marks a value inserted unescaped', () => {
    assert.deepEqual(parsePlaceholders('<div>{{{snippet}}}</div>').parts, ['<div>', { name: 'snippet', raw: true }, '</div>']);
  });

  it('malformed placeholders are reported and stay literal', () => {
    const { parts, invalid } = parsePlaceholders('a {{first name}} b {{}} c {{x-y}} d {{{z}} e {{.a}} {{ok}}');
    assert.deepEqual(invalid, ['{{first name}}', '{{}}', '{{x-y}}', '{{{z}}', '{{.a}}']);
    assert.deepEqual(parts, ['a {{first name}} b {{}} c {{x-y}} d {{{z}} e {{.a}} ', { name: 'ok', raw: false }]);
  });

  it('single braces and unclosed pairs are plain text (CSS and code survive)', () => {
    const css = '<style>p { color: red }</style> {{ not closed';
    assert.deepEqual(parsePlaceholders(css), { parts: [css], invalid: [] });
  });

  it('lists the variables used once each, in order of first appearance', () => {
    assert.deepEqual(variableNames(parsePlaceholders('{{b}} {{a}}'), parsePlaceholders('{{{a}}} {{c}} {{b}}')), ['b', 'a', 'c']);
  });
});

describe('template rendering', () => {
  const parts = parsePlaceholders('<p>{{name}} {{{raw}}}</p>').parts;

  it('escapes & < > " \' in html values, but not in {{{raw}}}', () => {
    assert.equal(
      fill(parts, { name: `<b>"Tom" & 'Jerry'</b>`, raw: '<i>ok</i>' }, 'html'),
      '<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt; <i>ok</i></p>',
    );
    assert.equal(escapeHtml('&amp;'), '&amp;amp;');
  });

  it('inserts values as given in plain text, numbers and booleans as text', () => {
    assert.equal(fill(parsePlaceholders('{{n}} x {{b}} {{s}}').parts, { n: 3.5, b: false, s: '<b>' }, 'plain'), '3.5 x false <b>');
  });

  it('a missing variable is one the values lack as an own key (an empty string is a value)', () => {
    assert.deepEqual(missingNames([parts], { name: '' }), ['raw']);
    assert.deepEqual(missingNames([parsePlaceholders('{{constructor}} {{toString}}').parts], {}), ['constructor', 'toString']);
  });
});
