import { createChatClient, type ChatClient } from '../../src/clients/providers/chatCompletions';
import { startModelSimulator, type ModelSimulator } from '../../src/sandbox/model';

/** Mocha hooks of a suite that talks to the chat-model simulator: started before the suite, stopped after it. */
export function useModelSimulator(): { sim(): ModelSimulator; chat(): ChatClient } {
  let sim: ModelSimulator | undefined;
  let chat: ChatClient | undefined;
  before(async () => {
    sim = await startModelSimulator();
    chat = createChatClient({
      MODEL_API_URL: sim.url,
      MODEL_API_KEY: sim.apiKey,
      MODEL_CHAT_MODEL: 'sim-model',
      FETCH_TIMEOUT_MS: 10_000,
    })!;
  });
  after(() => sim?.stop());
  return { sim: () => sim!, chat: () => chat! };
}
