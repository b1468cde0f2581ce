import assert from 'node:assert/strict';
import { scoreOf } from '../../../src/marketing/seo/check';
import type { SeoFinding } from '../../../src/marketing/seo/types';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { goodItem } from './fixtures';
import { dereferencedOpenApi } from '../../helpers/openapiDoc';

const findings = (errors: number, warnings: number): SeoFinding[] => [
  ...Array.from({ length: errors }, (): SeoFinding => ({ level: 'error', field: 'body', code: 'x', message: 'x' })),
  ...Array.from({ length: warnings }, (): SeoFinding => ({ level: 'warn', field: 'body', code: 'x', message: 'x' })),
];

describe('SEO score is the spec formula exactly: 100 − 15·errors − 5·warnings, with no floor (doc1 Limits)', () => {
  it('4 errors and 9 warnings give −5, not 0', () => {
    assert.equal(scoreOf(findings(4, 9)), -5);
  });

  it('the score keeps falling below 0 with every further finding', () => {
    assert.equal(scoreOf(findings(7, 0)), -5);
    assert.equal(scoreOf(findings(0, 30)), -50);
    assert.equal(scoreOf(findings(10, 10)), -100);
  });

  describe('through the seo-check route', () => {
    let acct: TestAccount;
    before(async () => {
      acct = await newAccount();
    });

    it('an item with more findings than 100 points cover answers its negative score', async () => {
      const emptyLinks = Array.from({ length: 8 }, (_, i) => `<a href="">link ${i}</a>`).join(' ');
      const [row] = await harness()
        .db('content_items')
        .insert({ account_id: acct.accountId, ...goodItem({ body: `<p>${emptyLinks}</p>` }) })
        .returning('id');
      const res = await call('GET', `/api/marketing/content/${row.id}/seo-check`, { token: acct.ownerToken });
      assert.equal(res.status, 200, res.text);
      const errors = res.body.findings.filter((f: SeoFinding) => f.level === 'error').length;
      const warnings = res.body.findings.length - errors;
      assert.ok(errors >= 8, res.text);
      assert.equal(res.body.score, 100 - 15 * errors - 5 * warnings);
      assert.ok(res.body.score < 0, `score ${res.body.score} should be below 0`);
    });

    it('the OpenAPI text of the score says it can go below 0 (and no longer that it is floored)', async () => {
      const doc = await dereferencedOpenApi();
      const score =
        doc.paths['/api/marketing/content/{id}/seo-check'].get.responses['200'].content['application/json'].schema.properties.score;
      assert.match(score.description, /below 0/);
      assert.doesNotMatch(score.description, /floored at 0/);
    });
  });
});
