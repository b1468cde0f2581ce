import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parseHTML } from 'linkedom';
import type { Config } from '../../../src/config';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import type { CallResult } from '../../helpers/http';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { startTestWorker } from '../../helpers/workerProcess';
import { stageOfKind } from '../../crm/fixtures';

export interface CaseStudyWorld {
  model: ModelSimulator | null;
  taskQueue: string;
  app: PrivateApp;
  appWith(config: Partial<Config>): Promise<PrivateApp>;
  stop(): Promise<void>;
}

export const modelConfig = (model: ModelSimulator | null): Partial<Config> => ({
  MODEL_API_URL: model?.url ?? 'http://127.0.0.1:9/v1',
  MODEL_API_KEY: model?.apiKey,
});

/** A worker of the product's activities (with or without a chat model) on its own task queue, and an app starting jobs there. */
export async function startCaseStudyWorld(options: { model?: boolean } = {}): Promise<CaseStudyWorld> {
  const model = options.model ? await startModelSimulator() : null;
  const worker = await startTestWorker('case-study', modelConfig(model));
  const { taskQueue } = worker;
  const apps: PrivateApp[] = [];
  const appWith = async (extra: Partial<Config>) => {
    const app = await startPrivateApp([], { taskQueue, config: { ...modelConfig(model), ...extra } });
    apps.push(app);
    return app;
  };
  const app = await appWith({});
  return {
    model,
    taskQueue,
    app,
    appWith,
    async stop() {
      await Promise.all(apps.map((a) => a.close()));
      await worker.stop();
      await model?.stop();
    },
  };
}

export const suffix = () => randomBytes(3).toString('hex');

export interface Deal {
  id: string;
  contactId: string;
}

/** A contact at a company and a deal of theirs in the pipeline's won (or another) stage. */
export async function newDeal(app: PrivateApp, token: string, kind: 'won' | 'open' | 'lost' = 'won'): Promise<Deal> {
  const contact = await app.call('POST', '/api/crm/contacts', {
    token,
    body: { name: 'Maria Jensen', email: `maria-${suffix()}@example.test`, company: 'Northwind Heating' },
  });
  assert.equal(contact.status, 201, contact.text);
  const stage = await stageOfKind(token, kind);
  const deal = await app.call('POST', '/api/crm/deals', {
    token,
    body: { title: 'Retrofit programme', currency: 'EUR', amount: 4800000, contactId: contact.body.id, stageId: stage.id },
  });
  assert.equal(deal.status, 201, deal.text);
  return { id: deal.body.id, contactId: contact.body.id };
}

export const QUOTE = 'Our heating bills fell by a third & the crew left no mess — "best 2 weeks" of the year <3';

export interface GridIds {
  id: string;
  testimonialId: string;
  unconsentedId: string;
}

/** A grid with measurable results (digits only in its values) and two testimonials, one with consent. */
export async function newGrid(app: PrivateApp, token: string): Promise<GridIds> {
  const res = await app.call('POST', '/api/marketing/before-after-grids', {
    token,
    body: {
      name: 'Northwind retrofit results',
      results: [
        { metric: 'Monthly heating cost', before: 412.5, after: 276, unit: 'EUR' },
        { metric: 'Indoor temperature swings', before: 4.2, after: 1.1, unit: 'degrees' },
      ],
      testimonials: [
        { quote: 'Hans Meyer from accounts said it saved us a fortune.', attribution: 'Hans Meyer', consent: false },
        { quote: QUOTE, attribution: 'Maria Jensen, Northwind Heating', consent: true },
      ],
    },
  });
  assert.equal(res.status, 201, res.text);
  const [unconsented, consented] = res.body.testimonials;
  return { id: res.body.id, testimonialId: consented.id, unconsentedId: unconsented.id };
}

/** The grid's before and after values as a reader sees them (trailing zeros dropped). */
export const GRID_NUMBERS = new Set(['412.5', '276', '4.2', '1.1']);

export function draft(
  app: PrivateApp,
  token: string,
  body: Record<string, unknown>,
  options: { key?: string; agent?: boolean } = {},
): Promise<CallResult> {
  return app.call('POST', `/api${options.agent ? '/agent' : ''}/marketing/content/case-study`, {
    token,
    body,
    headers: options.key ? { 'Idempotency-Key': options.key } : {},
  });
}

interface ParsedNode {
  textContent: string | null;
  remove(): void;
}
interface ParsedDocument {
  body: ParsedNode;
  querySelector(selector: string): ParsedNode | null;
}

/** The text a reader sees in an HTML body, and the text of its blockquote (the quote), parsed as a browser would. */
export function readDraft(body: string): { text: string; quote: string | null } {
  const { document } = parseHTML(`<!doctype html><html><body>${body}</body></html>`) as unknown as { document: ParsedDocument };
  const quote = document.querySelector('blockquote p');
  const quoteText = quote ? quote.textContent : null;
  quote?.remove();
  return { text: document.body.textContent ?? '', quote: quoteText };
}

/** Every number token (digits with decimal points or thousands commas) of `text`, source markers left out. */
export function numbersOf(text: string): string[] {
  return [...text.replace(/\[\^[^\]]+\]/g, ' ').matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => m[0]);
}
