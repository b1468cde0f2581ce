import assert from 'node:assert/strict';
import { renderTemplate } from '../../../src/email/templates/service';
import { ApiError } from '../../../src/http/errors';
import { newAccount } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { ABSENT_IDS, assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { newEmailKey } from '../domains/fixtures';

const welcome = {
  name: 'Welcome',
  subject: 'Welcome, {{first_name}}',
  html: '<h1>Hello {{first_name}}</h1><p>{{{signature}}}</p><p>Plan: {{plan.name}}</p>',
  text: 'Hello {{first_name}}, plan {{plan.name}}',
};

describe('email templates', () => {
  let key: string;
  let accountId: string;
  beforeEach(async () => {
    ({ accountId } = await newAccount());
    key = await newEmailKey(accountId, ['email:templates']);
  });

  const create = async (body: Record<string, unknown> = welcome, token = key) => {
    const res = await call('POST', '/v1/email/templates', { token, body });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const get = (id: string, token = key) => call('GET', `/v1/email/templates/${id}`, { token });
  const rejected = async (err: unknown, code: string) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, code);
    return err;
  };

  it('create answers 201 with the template and the variables it uses; get shows the same', async () => {
    const created = await create();
    assert.equal(created.name, 'Welcome');
    assert.equal(created.subject, welcome.subject);
    assert.equal(created.html, welcome.html);
    assert.equal(created.text, welcome.text);
    assert.deepEqual(created.variables, ['first_name', 'signature', 'plan.name']);
    assert.deepEqual((await get(created.id)).body, created);
  });

  it('a template needs a subject and html or text', async () => {
    assertFieldError(await call('POST', '/v1/email/templates', { token: key, body: { name: 'x', html: '<p>hi</p>' } }), 'body.subject');
    assertFieldError(
      await call('POST', '/v1/email/templates', { token: key, body: { name: 'x', subject: '  ', html: '<p>hi</p>' } }),
      'body.subject',
    );
    assertFieldError(await call('POST', '/v1/email/templates', { token: key, body: { name: 'x', subject: 'Hi' } }), 'body.html');
    assertFieldError(
      await call('POST', '/v1/email/templates', { token: key, body: { name: 'x', subject: 'Hi', html: '', text: null } }),
      'body.html',
    );
    assertFieldError(
      await call('POST', '/v1/email/templates', { token: key, body: { name: 'x', subject: 'Line\r\nBcc: a@b.c', text: 'x' } }),
      'body.subject',
    );
    const textOnly = await create({ name: 'Text only', subject: 'Hi', text: 'plain' });
    assert.equal(textOnly.html, null);
    assert.equal((await call('GET', '/v1/email/templates', { token: key })).body.total, 1, 'only the valid one was written');
  });

  it('a malformed placeholder is 400 naming the field', async () => {
    const res = await call('POST', '/v1/email/templates', {
      token: key,
      body: { name: 'x', subject: 'Hi', html: '<p>{{first name}}</p>' },
    });
    assertFieldError(res, 'body.html');
    assert.match(res.text, /\{\{first name\}\}/);
  });

  it('a name the account already uses, ignoring case, is 409 template_name_taken (create and rename)', async () => {
    await create();
    assertError(
      await call('POST', '/v1/email/templates', { token: key, body: { ...welcome, name: 'WELCOME' } }),
      409,
      'template_name_taken',
    );
    const other = await create({ ...welcome, name: 'Receipt' });
    assertError(
      await call('PATCH', `/v1/email/templates/${other.id}`, { token: key, body: { name: 'welcome' } }),
      409,
      'template_name_taken',
    );
    assert.equal((await get(other.id)).body.name, 'Receipt');
    // Another account may use the name.
    await create(welcome, await newEmailKey((await newAccount()).accountId, ['email:templates']));
  });

  it("lists the account's templates by name, ignoring case, paged, without html and text", async () => {
    for (const name of ['beta', 'Alpha', 'gamma']) await create({ ...welcome, name });
    await create(welcome, await newEmailKey((await newAccount()).accountId, ['email:templates']));
    const page1 = await call('GET', '/v1/email/templates?limit=2', { token: key });
    assert.equal(page1.status, 200, page1.text);
    assert.equal(page1.body.total, 3);
    const page2 = await call('GET', '/v1/email/templates?limit=2&page=2', { token: key });
    assert.deepEqual(
      [...page1.body.data, ...page2.body.data].map((t: { name: string }) => t.name),
      ['Alpha', 'beta', 'gamma'],
    );
    assert.deepEqual(Object.keys(page1.body.data[0]).sort(), ['created_at', 'id', 'name', 'subject', 'updated_at', 'variables']);
  });

  it('update is partial; null clears html or text as long as one remains', async () => {
    const created = await create();
    const renamed = await call('PATCH', `/v1/email/templates/${created.id}`, {
      token: key,
      body: { subject: 'Hello {{nick}}', html: null },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, 'Welcome');
    assert.equal(renamed.body.html, null);
    assert.equal(renamed.body.text, welcome.text);
    assert.deepEqual(renamed.body.variables, ['nick', 'first_name', 'plan.name']);
    assert.ok(renamed.body.updated_at >= created.updated_at);
    assertFieldError(await call('PATCH', `/v1/email/templates/${created.id}`, { token: key, body: { text: '' } }), 'body.html');
    assertFieldError(await call('PATCH', `/v1/email/templates/${created.id}`, { token: key, body: { unknown: 1 } }), 'body');
    assert.equal((await get(created.id)).body.text, welcome.text, 'nothing changed');
    const same = await call('PATCH', `/v1/email/templates/${created.id}`, { token: key, body: {} });
    assert.deepEqual(same.body, (await get(created.id)).body);
  });

  it('delete answers 204 and the template is gone', async () => {
    const created = await create();
    assert.equal((await call('DELETE', `/v1/email/templates/${created.id}`, { token: key })).status, 204);
    assertError(await get(created.id), 404, 'template_not_found');
    assertError(await call('DELETE', `/v1/email/templates/${created.id}`, { token: key }), 404, 'template_not_found');
  });

  it("another account's template, a missing id or a malformed id is 404 template_not_found and changes nothing", async () => {
    const otherKey = await newEmailKey((await newAccount()).accountId, ['email:templates']);
    const theirs = await create(welcome, otherKey);
    for (const id of [theirs.id, ...ABSENT_IDS]) {
      assertError(await get(id), 404, 'template_not_found');
      assertError(await call('PATCH', `/v1/email/templates/${id}`, { token: key, body: { name: 'mine now' } }), 404, 'template_not_found');
      assertError(await call('DELETE', `/v1/email/templates/${id}`, { token: key }), 404, 'template_not_found');
    }
    assert.equal((await get(theirs.id, otherKey)).body.name, 'Welcome');
  });

  it('template routes need an email key with the scope email:templates', async () => {
    const created = await create();
    const domainsOnly = await newEmailKey(accountId, ['email:domains', 'email:send']);
    for (const [method, path, body] of [
      ['POST', '/v1/email/templates', { ...welcome, name: 'Other' }],
      ['GET', '/v1/email/templates', undefined],
      ['GET', `/v1/email/templates/${created.id}`, undefined],
      ['PATCH', `/v1/email/templates/${created.id}`, { name: 'Changed' }],
      ['DELETE', `/v1/email/templates/${created.id}`, undefined],
    ] as const) {
      assertError(await call(method, path, { token: domainsOnly, body }), 403, 'missing_scope');
      assert.equal((await call(method, path, { body })).status, 401);
    }
    assert.equal((await get(created.id)).body.name, 'Welcome', 'nothing changed');
  });

  describe('rendering a template for a send', () => {
    const db = () => harness().db;
    const values = { first_name: '<Ann & "Bo">', signature: '<em>The team</em>', 'plan.name': 'Pro' };

    it('escapes variables in html (except {{{raw}}}) and inserts them as given in subject and text', async () => {
      const created = await create();
      const rendered = await renderTemplate(db(), accountId, { id: created.id }, values);
      assert.deepEqual(rendered, {
        subject: 'Welcome, <Ann & "Bo">',
        html: '<h1>Hello &lt;Ann &amp; &quot;Bo&quot;&gt;</h1><p><em>The team</em></p><p>Plan: Pro</p>',
        text: 'Hello <Ann & "Bo">, plan Pro',
      });
    });

    it('finds the template by name ignoring case; a text-only template renders html null', async () => {
      await create({ name: 'Plain Note', subject: 'Note {{n}}', text: 'n = {{n}}' });
      assert.deepEqual(await renderTemplate(db(), accountId, { name: 'plain note' }, { n: 7 }), {
        subject: 'Note 7',
        html: null,
        text: 'n = 7',
      });
    });

    it('a missing variable is 400 template_variable_missing naming it', async () => {
      const created = await create();
      const err = await rejected(
        await renderTemplate(db(), accountId, { id: created.id }, { first_name: 'Ann' }).catch((e) => e),
        'template_variable_missing',
      );
      assert.deepEqual(err.extra.details, { variable: 'signature', missing: ['signature', 'plan.name'] });
      assert.match(err.message, /signature/);
    });

    it('a subject value with a line break is 400 template_variable_invalid (no header injection)', async () => {
      const created = await create();
      const err = await rejected(
        await renderTemplate(db(), accountId, { id: created.id }, { ...values, first_name: 'Ann\r\nBcc: x@evil.test' }).catch((e) => e),
        'template_variable_invalid',
      );
      assert.equal(err.extra.details?.variable, 'first_name');
      // In the bodies a line break is fine.
      await create({ name: 'Body only', subject: 'Fixed', text: '{{lines}}' });
      assert.equal((await renderTemplate(db(), accountId, { name: 'Body only' }, { lines: 'a\nb' })).text, 'a\nb');
    });

    it("another account's, a missing or a mismatched template is 400 template_not_found", async () => {
      const mine = await create();
      const theirs = await create(welcome, await newEmailKey((await newAccount()).accountId, ['email:templates']));
      for (const ref of [{ id: theirs.id }, { id: 'not-a-uuid' }, { name: 'Nope' }, { id: mine.id, name: 'Other' }, {}]) {
        await rejected(await renderTemplate(db(), accountId, ref, values).catch((e) => e), 'template_not_found');
      }
      assert.equal((await renderTemplate(db(), accountId, { id: mine.id, name: 'WELCOME' }, values)).subject, 'Welcome, <Ann & "Bo">');
    });
  });
});
