import { randomBytes, randomUUID } from 'node:crypto';
import { createAccount } from '../../src/auth/service';
import { listStages } from '../../src/crm/pipelineService';
import { createContact } from '../../src/crm/contactService';
import { createDeal } from '../../src/crm/dealService';
import { gatherSources } from '../../src/marketing/caseStudy/gather';
import { caseStudyMessages, caseStudyRequestOf } from '../../src/marketing/caseStudy/modelDraft';
import { getContent } from '../../src/marketing/content/service';
import { createGrid } from '../../src/marketing/grounding/gridService';
import { createChatClient } from '../../src/clients/providers/chatCompletions';
import { startModelSimulator } from '../../src/sandbox/model';
import { caseStudyContract, type CaseStudyInput } from '../../workflows/caseStudy.contract';
import type { WorkflowOf } from '../../workflows/defineWorkflow';
import type { BenchEnv } from '../lib/env';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY } from '../lib/servers';
import { summarize } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const ROUNDS = 8;
const MODEL_MS = 1_000;

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

/**
 * A case-study draft from a won deal with a grid and a consented testimonial, through the `caseStudy` workflow on the
 * product's worker (its own process): the sources read and checked, one model call answering after 1 s, the draft
 * assembled and checked, the item with its version and the `case_study` artifact saved. The baseline is that one model
 * call alone (the same prompt against the same simulator) in the same run. Goal: a draft takes at most 1.5× it.
 */
export async function caseStudy(env: BenchEnv): Promise<ScenarioResult> {
  const model = await startModelSimulator();
  model.delayMs = MODEL_MS;
  const modelEnv = { MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey };
  const taskQueue = `bench-case-study-${randomBytes(4).toString('hex')}`;
  const worker = await startBenchWorker(env, taskQueue, modelEnv);
  const chat = createChatClient({
    MODEL_API_URL: model.url,
    MODEL_API_KEY: model.apiKey,
    MODEL_CHAT_MODEL: 'gpt-4o-mini',
    FETCH_TIMEOUT_MS: 30_000,
  })!;
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench cases',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const won = (await listStages(env.db, account.id)).find((s) => s.kind === 'won')!;
  const contact = await createContact(env.db, account.id, {
    name: 'Maria Jensen',
    email: `maria-${tag}@example.com`,
    company: 'Northwind Heating',
  });
  const grid = await createGrid(env.db, account.id, {
    name: 'Retrofit results',
    results: [
      { metric: 'Monthly heating cost', before: 412.5, after: 276, unit: 'EUR' },
      { metric: 'Temperature swings', before: 4.2, after: 1.1, unit: 'degrees' },
    ],
    testimonials: [{ quote: 'The crew was quick and our bills fell.', attribution: 'Maria Jensen', consent: true }],
  });

  const newInput = async (): Promise<CaseStudyInput> => {
    const deal = await createDeal(env.db, account.id, { title: 'Retrofit', currency: 'EUR', contactId: contact.id, stageId: won.id });
    return {
      accountId: account.id,
      dealId: deal.id,
      gridId: grid.id,
      testimonialId: null,
      avatarId: null,
      projectId: null,
      requestId: randomUUID(),
    };
  };
  const runThroughTemporal = async (input: CaseStudyInput) =>
    env.client.workflow.execute<WorkflowOf<typeof caseStudyContract>>(caseStudyContract.workflowType, {
      taskQueue,
      workflowId: `bench-case-study:${randomUUID()}`,
      args: [input],
    });
  const { sources } = await gatherSources(env.db, account.id, {
    dealId: (await newInput()).dealId,
    gridId: grid.id,
    testimonialId: null,
    avatarId: null,
    projectId: null,
  });
  const modelCallAlone = () => chat.complete(caseStudyMessages(caseStudyRequestOf(sources)), { jsonObject: true });
  try {
    await runThroughTemporal(await newInput());
    await modelCallAlone();
    const ours: number[] = [];
    const baseline: number[] = [];
    const notes: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await timed(modelCallAlone));
      const input = await newInput();
      let drafted = { id: '' };
      ours.push(
        await timed(async () => {
          drafted = await runThroughTemporal(input);
        }),
      );
      const item = await getContent(env.db, account.id, drafted.id);
      const writer = String((item.settings.case_study as { writer?: string } | undefined)?.writer);
      notes.push(`round ${r + 1}: draft ${ours[r].toFixed(0)} ms (writer ${writer}), model call alone ${baseline[r].toFixed(0)} ms`);
    }
    const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);
    return {
      name: `case-study, a draft from a won deal with a model answering in ${MODEL_MS} ms (${ROUNDS} rounds; draft time)`,
      ours: summarize(ours, sum(ours), 0),
      baseline: summarize(baseline, sum(baseline), 0),
      baselineLabel: 'the one model call alone (same prompt, same simulator)',
      compare: 'p99',
      goalRatio: 1.5,
      notes,
    };
  } finally {
    await worker.stop();
    await model.stop();
  }
}
