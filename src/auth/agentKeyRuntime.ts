import type { AppDeps } from '../deps';
import { listenConnectionOf } from '../db/listenConnection';
import { NotificationListener } from '../db/notifications';
import { AGENT_KEYS_CHANNEL, AgentKeyCache } from './agentKeyCache';

interface Runtime {
  cache: AgentKeyCache;
  close(): Promise<void>;
}

const runtimes = new WeakMap<AppDeps, Runtime>();
const open = new Set<Runtime>();

/**
 * The agent-key cache of this app (one per API process; tests run several apps in one process, each with its own),
 * with its LISTEN connection, started on first use. It trusts what it keeps only while it listens.
 */
export function agentKeyCacheOf(deps: AppDeps): AgentKeyCache {
  return (runtimes.get(deps) ?? start(deps)).cache;
}

function start(deps: AppDeps): Runtime {
  const cache = new AgentKeyCache(deps.db);
  const listener = new NotificationListener({
    connection: listenConnectionOf(deps.db, deps.config.DATABASE_URL),
    channels: [AGENT_KEYS_CHANNEL],
    logger: deps.logger,
    onNotification: (_channel, keyId) => cache.invalidate(keyId),
    onListening: () => {
      cache.invalidateAll();
      cache.caching = true;
    },
    onLost: () => {
      cache.caching = false;
      cache.invalidateAll();
    },
  }).start();
  const runtime: Runtime = {
    cache,
    close: async () => {
      runtimes.delete(deps);
      open.delete(runtime);
      cache.caching = false;
      cache.invalidateAll();
      await listener.stop();
    },
  };
  runtimes.set(deps, runtime);
  open.add(runtime);
  return runtime;
}

/** Stops this app's listener (API shutdown). */
export async function closeAgentKeyCache(deps: AppDeps): Promise<void> {
  await runtimes.get(deps)?.close();
}

/** Closes every cache of the process (test harness shutdown). */
export async function closeAgentKeyCaches(): Promise<void> {
  await Promise.all([...open].map((runtime) => runtime.close()));
}
