import type { Config } from '../config';
import { startModelSimulator, type ModelSimulator } from '../sandbox/model';
import { articleHtml, startPageServer, type PageServer } from '../sandbox/pages';
import { startSearchSimulator, type SearchSimulator } from '../sandbox/search';

const DEMO_TOPICS = ['Heat pumps', 'Solar panels', 'Home insulation', 'Battery storage', 'Smart thermostats'];

export interface ResearchSandbox {
  /** The research providers of `config` pointed at the simulators (page fetches may reach loopback). */
  configure(config: Config): Config;
  bannerLines(): string[];
  stop(): Promise<void>;
}

/**
 * `start --sandbox`, research side: the web-search API and the chat-completions model simulated on loopback, and a
 * page server holding a few demo articles that every search answers with, so a research run works end to end with
 * no provider account.
 */
export async function startResearchSandbox(): Promise<ResearchSandbox> {
  const [search, model, pages]: [SearchSimulator, ModelSimulator, PageServer] = await Promise.all([
    startSearchSimulator(),
    startModelSimulator(),
    startPageServer(),
  ]);
  const results = DEMO_TOPICS.map((topic, i) => {
    const path = `/articles/${topic.toLowerCase().replace(/\s+/g, '-')}`;
    pages.setPage(path, { html: articleHtml({ title: `${topic}: what the numbers say`, topic, paragraphs: 6 }) });
    return {
      title: `${topic}: what the numbers say`,
      url: pages.url(path),
      description: `Demo article ${i + 1} about ${topic.toLowerCase()}.`,
    };
  });
  search.setResults('*', results);
  return {
    configure: (config) => ({
      ...config,
      SEARCH_API_URL: search.url,
      SEARCH_API_KEY: search.apiKey,
      MODEL_API_URL: model.url,
      MODEL_API_KEY: model.apiKey,
      FETCH_ALLOW_PRIVATE_HOSTS: true,
    }),
    bannerLines: () => [
      'Sandbox: research providers are simulated on loopback (web search, chat model, demo pages).',
      `  Web search   ${search.url}   Model ${model.url}   Pages ${pages.origin}`,
      '  Run research on a content item: POST /api/marketing/content/{id}/research with an Idempotency-Key header.',
    ],
    stop: async () => {
      await Promise.all([search.stop(), model.stop(), pages.stop()]);
    },
  };
}
