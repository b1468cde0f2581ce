import assert from 'node:assert/strict';
import { newPublicToken, storedFilename } from '../../../src/marketing/media/files';

describe('media file names and tokens', () => {
  it("a stored file name keeps the base name in URL-safe characters and takes the decoded format's extension", () => {
    assert.equal(storedFilename('Hero Shot.PNG', 'png'), 'Hero-Shot.png');
    assert.equal(storedFilename('Café Menü (final).jpeg', 'webp'), 'Cafe-Menu-final.webp');
    assert.equal(storedFilename('../../etc/passwd', 'png'), 'passwd.png');
    assert.equal(storedFilename('C:\\Users\\me\\logo.gif', 'gif'), 'logo.gif');
  });

  it('a name with nothing usable becomes image.<ext>; a long one is cut to 80 characters before the extension', () => {
    for (const name of ['', '.png', '???', '日本語.png']) assert.equal(storedFilename(name, 'png'), 'image.png', name);
    const long = storedFilename(`${'a'.repeat(200)}.png`, 'png');
    assert.equal(long, `${'a'.repeat(80)}.png`);
  });

  it('public tokens are 43 base64url characters and never repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newPublicToken));
    assert.equal(tokens.size, 1000);
    for (const t of tokens) assert.match(t, /^[A-Za-z0-9_-]{43}$/);
  });
});
