import { DeliveryDispatcher } from '../commerce/webhooks/dispatcher';
import type { AppDeps } from '../deps';
import { closeEmailRuntime } from '../email/keys/runtime';
import { closeRelays } from '../email/send/transport';

/** What runs beside the API's server, started with it and stopped once its in-flight requests are drained. */
export interface ApiCompanions {
  stop(): Promise<void>;
}

export function startApiCompanions(deps: AppDeps): ApiCompanions {
  // The relay of the commerce webhook outbox runs with the API.
  const dispatcher = new DeliveryDispatcher(deps).start();
  return {
    async stop() {
      await dispatcher.stop();
      await closeEmailRuntime(deps); // the key-change listener and the last usage flush
      await closeRelays(); // pooled SMTP connections to the relay
    },
  };
}
