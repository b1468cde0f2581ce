// The client's quick start (README.md), run as it is by test/clients/typescriptClient/live.test.ts.
import { createCrmContact, createWorkyardClient, followJob, idempotencyKey, listAll, listCrmContacts, researchTopicAgent } from '../src';

export async function quickstart(baseUrl: string, ownerToken: string, agentKey: string) {
  // A session token works on the dashboard routes; an agent key on /api/agent/… ones.
  const owner = createWorkyardClient({ baseUrl, token: ownerToken });
  const agent = createWorkyardClient({ baseUrl, token: agentKey });

  const { data: contact } = await createCrmContact({ client: owner, body: { name: 'Ada Lovelace', email: 'ada@example.com' } });

  const names: string[] = [];
  for await (const c of listAll<{ name: string | null }>((next) =>
    listCrmContacts({ client: owner, query: { search: 'ada', ...(next.page ? { page: String(next.page) } : {}) } }),
  ))
    names.push(c.name ?? '');

  // A job: answered 202 with its Location at once (Prefer: respond-async), then followed to its end.
  const started = await researchTopicAgent({
    client: agent,
    body: { topic: 'Heat pumps', keyword: 'heat pump installation' },
    headers: { 'Idempotency-Key': idempotencyKey(), Prefer: 'respond-async' },
  });
  const job = await followJob(agent, started.response!.headers.get('location')!);

  return { contact, names, job };
}
