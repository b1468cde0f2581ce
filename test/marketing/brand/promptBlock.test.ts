import assert from 'node:assert/strict';
import { EMPTY_GUIDE, effectiveGuide, plainSentences, promptBlock } from '../../../src/marketing/brand/profile';

describe('brand prompt block (pure rules)', () => {
  it('plain sentences: markdown and HTML marks are dropped, each line becomes a capitalised sentence, words with underscores are kept', () => {
    assert.equal(plainSentences('<b>bold</b> claims\n\n***\n- use snake_case names\n  ok?  '), 'Bold claims. Use snake_case names. Ok?');
    assert.equal(plainSentences('```\ncode\n```'), 'Code.');
    assert.equal(plainSentences('  \n***\n'), '');
  });

  it('an unset guide, or one whose text holds no words, gives an empty prompt block', () => {
    assert.equal(promptBlock(EMPTY_GUIDE), '');
    assert.equal(promptBlock({ ...EMPTY_GUIDE, voice: '***', visual_style: '# ' }), '');
  });

  it('project guide wins field by field: a set field (text, non-empty list, logo) replaces the account one, an unset one falls back', () => {
    const account = {
      voice: 'A',
      visual_style: 'B',
      colors: [{ name: null, hex: '#000000' }],
      avoid: ['x'],
      primary_logo_asset_id: 'logo-a',
    };
    const project = { ...EMPTY_GUIDE, visual_style: 'P', avoid: [] as string[], primary_logo_asset_id: 'logo-p' };
    assert.deepEqual(effectiveGuide(account, project), { ...account, visual_style: 'P', primary_logo_asset_id: 'logo-p' });
    assert.deepEqual(effectiveGuide(undefined, project), project);
    assert.deepEqual(effectiveGuide(account, undefined), account);
    assert.deepEqual(effectiveGuide(undefined, undefined), EMPTY_GUIDE);
  });
});
