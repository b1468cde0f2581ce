import type { AppDeps } from '../../deps';
import { listenConnectionOf } from '../../db/listenConnection';
import { NotificationListener } from '../../db/notifications';
import { KeyRateLimiter } from '../limits/rateLimiter';
import { registerUsageRecorder } from '../usage/flusher';
import { UsageRecorder } from '../usage/recorder';
import { Keyring } from './keyring';
import { EMAIL_KEYS_CHANNEL } from './store';

/**
 * What email keys keep in process, per app (one per API process in production; tests run several apps in one
 * process, each with its own): the keyring, its LISTEN connection, the rate-limit windows and the usage buffer.
 */
export interface EmailRuntime {
  keyring: Keyring;
  limiter: KeyRateLimiter;
  usage: UsageRecorder;
  close(): Promise<void>;
}

const runtimes = new WeakMap<AppDeps, EmailRuntime>();
const open = new Set<EmailRuntime>();

/** The runtime of this app, started on first use. */
export function emailRuntime(deps: AppDeps): EmailRuntime {
  return runtimes.get(deps) ?? startRuntime(deps);
}

function startRuntime(deps: AppDeps): EmailRuntime {
  const usage = new UsageRecorder(deps.db);
  const keyring = new Keyring(deps.db, usage);
  const unregister = registerUsageRecorder(usage, (err) => deps.logger.warn({ err }, 'email key usage flush failed; retrying'));
  const listener = new NotificationListener({
    connection: listenConnectionOf(deps.db, deps.config.DATABASE_URL),
    channels: [EMAIL_KEYS_CHANNEL],
    logger: deps.logger,
    onNotification: (_channel, keyId) => {
      keyring.invalidate(keyId).catch((err) => deps.logger.warn({ err, keyId }, 'email key reload failed'));
    },
    onListening: () => {
      keyring.caching = true;
      keyring.invalidateAll().catch((err) => deps.logger.warn({ err }, 'email keyring reload failed'));
    },
    onLost: () => {
      keyring.caching = false;
    },
  }).start();
  const runtime: EmailRuntime = {
    keyring,
    usage,
    limiter: new KeyRateLimiter(deps.config.EMAIL_RATE_REPLICAS),
    close: async () => {
      runtimes.delete(deps);
      open.delete(runtime);
      keyring.caching = false;
      await listener.stop();
      await unregister();
    },
  };
  runtimes.set(deps, runtime);
  open.add(runtime);
  return runtime;
}

/** Stops this app's listener and writes its pending usage (API shutdown). */
export async function closeEmailRuntime(deps: AppDeps): Promise<void> {
  await runtimes.get(deps)?.close();
}

/** Closes every runtime of the process (test harness shutdown). */
export async function closeEmailRuntimes(): Promise<void> {
  await Promise.all([...open].map((runtime) => runtime.close()));
}
