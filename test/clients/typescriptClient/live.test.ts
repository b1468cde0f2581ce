import assert from 'node:assert/strict';
import {
  createCrmContact,
  createEmailKey,
  createWorkyardClient,
  followJob,
  getAgentMe,
  idempotencyKey,
  listAll,
  listCrmContacts,
  researchTopicAgent,
  sendEmail,
} from '../../../clients/typescript/src';
import { quickstart } from '../../../clients/typescript/examples/quickstart';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { FROM, senderAccount } from '../../email/send/kit';
import { publishArticles, startResearchWorld, suffix, type ResearchWorld } from '../../research/researchKit';

describe('the TypeScript client against the live server', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await newAccount('Client Co');
  });

  it('a CRM write and a list read back page by page through listAll', async () => {
    const client = createWorkyardClient({ baseUrl: harness().baseUrl, token: account.ownerToken });
    for (const n of [1, 2, 3]) {
      const { data, response } = await createCrmContact({ client, body: { name: `Client Contact ${n}`, email: `c${n}@client.test` } });
      assert.equal(response?.status, 201);
      assert.equal(data?.email, `c${n}@client.test`);
    }
    const names: string[] = [];
    for await (const contact of listAll<{ name: string | null }>((next) =>
      listCrmContacts({ client, query: { limit: '2', ...(next.page ? { page: String(next.page) } : {}) } }),
    ))
      names.push(contact.name ?? '');
    assert.deepEqual(names.sort(), ['Client Contact 1', 'Client Contact 2', 'Client Contact 3']);
  });

  it('an agent key call answers the key and its account', async () => {
    const client = createWorkyardClient({ baseUrl: harness().baseUrl, token: account.agentKey });
    const { data, response } = await getAgentMe({ client });
    assert.equal(response?.status, 200);
    assert.equal(data?.account_id, account.accountId);
  });

  it('a test-key email: the key made through the client, then a send simulated with its recipients', async () => {
    const sender = await senderAccount();
    const owner = createWorkyardClient({ baseUrl: harness().baseUrl, token: sender.ownerToken });
    const made = await createEmailKey({ client: owner, body: { name: 'client test key', environment: 'test', scopes: ['email:send'] } });
    assert.equal(made.response?.status, 201, JSON.stringify(made.error));
    const keyClient = createWorkyardClient({ baseUrl: harness().baseUrl, token: made.data!.secret });
    const sent = await sendEmail({ client: keyClient, body: { from: FROM, to: 'jane@customer.test', subject: 'Hi', text: 'Hello Jane' } });
    assert.equal(sent.response?.status, 200, JSON.stringify(sent.error));
    assert.equal((sent.data as { status: string }).status, 'simulated');
  });

  describe('a research run', () => {
    let world: ResearchWorld;
    before(async () => {
      world = await startResearchWorld();
    });
    after(async () => world?.stop());

    it('the quick start (clients/typescript/examples/quickstart.ts) runs as it is written', async () => {
      const fresh = await newAccount('Quick Start Co');
      publishArticles(world, 'heat pump installation', 2);
      const { contact, names, job } = await quickstart(world.app.baseUrl, fresh.ownerToken, fresh.agentKey);
      assert.equal(contact?.email, 'ada@example.com');
      assert.deepEqual(names, ['Ada Lovelace']);
      assert.equal(job.status, 'completed', JSON.stringify(job));
    });

    it('started asynchronously with an Idempotency-Key and followed through its Location to its result', async () => {
      const keyword = `attic insulation ${suffix()}`;
      publishArticles(world, keyword, 2);
      const client = createWorkyardClient({ baseUrl: world.app.baseUrl, token: account.agentKey });
      const started = await researchTopicAgent({
        client,
        body: { topic: 'Attic insulation', keyword, max_sources: 2 },
        headers: { 'Idempotency-Key': idempotencyKey(), Prefer: 'respond-async' },
      });
      assert.equal(started.response?.status, 202, JSON.stringify(started.error));
      const location = started.response?.headers.get('location') ?? '';
      assert.ok(location.startsWith('/api/agent/jobs/'), `Location: ${location}`);
      const job = await followJob(client, location);
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.ok(job.result, 'the finished job carries its result');
    });
  });
});
