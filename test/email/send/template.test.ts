import assert from 'node:assert/strict';
import { createTemplate } from '../../../src/email/templates/service';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, sleep, type SendWorld, useSendWorld } from './kit';

describe('POST /v1/email/send with a template', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  async function accountWithTemplate() {
    const account = await senderAccount();
    const template = await createTemplate(harness().db, account.accountId, {
      name: 'Welcome',
      subject: 'Welcome, {{name}}!',
      html: '<p>Hi {{name}}, your plan is {{plan}}.</p>',
      text: 'Hi {{name}}, your plan is {{plan}}.',
    });
    const { token } = await emailKey(account.accountId);
    return { account, template, token };
  }

  const templated = (template: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    message({ subject: undefined, text: undefined, template, ...extra });

  it('a send naming a template is accepted and delivered rendered with the variables (HTML-escaped in html)', async () => {
    const { template, token } = await accountWithTemplate();
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: templated({ id: template.id, variables: { name: 'Ann <3', plan: 'pro' } }),
    });
    assert.equal(res.status, 202, res.text);
    const [received] = await world.smtp.waitForMessages(1);
    assert.equal(received.parsed.header('subject'), 'Welcome, Ann <3!');
    assert.equal(received.parsed.html, '<p>Hi Ann &lt;3, your plan is pro.</p>');
    assert.equal(received.parsed.text, 'Hi Ann <3, your plan is pro.');
  });

  it("a template is found by name ignoring case, and a given subject overrides the template's", async () => {
    const { token } = await accountWithTemplate();
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: templated({ name: 'WELCOME', variables: { name: 'Bo', plan: 'free', unused: true } }, { subject: 'Custom subject' }),
    });
    assert.equal(res.status, 202, res.text);
    const [received] = await world.smtp.waitForMessages(1);
    assert.equal(received.parsed.header('subject'), 'Custom subject');
    assert.equal(received.parsed.text, 'Hi Bo, your plan is free.');
  });

  it('a template variable without a value is 400 template_variable_missing and nothing is sent', async () => {
    const { account, template, token } = await accountWithTemplate();
    const res = await world.app.call('POST', '/v1/email/send', { token, body: templated({ id: template.id, variables: { name: 'Ann' } }) });
    assertError(res, 400, 'template_variable_missing');
    assert.equal(res.body.variable, 'plan');
    await sleep(100);
    assert.equal(world.smtp.dataReceived, 0);
    assert.deepEqual(await messageRows(account.accountId), [], 'nothing was queued');
  });

  it("a missing template, or another account's, is 400 template_not_found", async () => {
    const { template } = await accountWithTemplate();
    const other = await senderAccount();
    const { token } = await emailKey(other.accountId);
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, body: templated({ id: template.id, variables: {} }) }),
      400,
      'template_not_found',
    );
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, body: templated({ name: 'Welcome', variables: {} }) }),
      400,
      'template_not_found',
    );
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, body: templated({ id: 'not-a-uuid' }) }),
      400,
      'template_not_found',
    );
  });

  it('a template send from an unverified domain is refused before the template is read', async () => {
    const account = await newAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: templated({ name: 'anything' }) });
    assertError(res, 403, 'domain_not_verified');
  });
});
