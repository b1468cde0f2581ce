import { AlertEventRelay } from '../alerts/relay';
import { DeliveryDispatcher } from '../commerce/webhooks/dispatcher';
import type { AppDeps } from '../deps';
import { closeAgentKeyCache } from '../auth/agentKeyRuntime';
import { closeEmailRuntime } from '../email/keys/runtime';
import { EmailEventRedispatcher } from '../email/webhooks/redispatchRelay';
import { startConfiguredReturnPath } from '../email/returnPath/runtime';
import { closeRelays } from '../email/send/transport';
import { JobIndexWatcher } from '../jobs/jobIndexWatcher';
import { closeTurnWakeups } from '../marketing/ai/turnWakeups';
import { SiteEventRelay } from '../sitePlatform/webhooks/relay';

/** What runs beside the API's server, started with it and stopped once its in-flight requests are drained. */
export interface ApiCompanions {
  stop(): Promise<void>;
}

export function startApiCompanions(deps: AppDeps): ApiCompanions {
  // The relay of the commerce webhook outbox runs with the API.
  const dispatcher = new DeliveryDispatcher(deps).start();
  // The relay of the site platform inbound-event outbox (fan-out hand-over) runs with the API too.
  const siteEventRelay = new SiteEventRelay(deps).start();
  // Email events whose delivery workflow could not be started when they were emitted.
  const emailRedispatcher = new EmailEventRedispatcher(deps).start();
  // Alert events recorded by activities (job closings, sweeps, inbox items) or whose workflow start failed.
  const alertRelay = new AlertEventRelay(deps).start();
  // The job index in step with Temporal, and job.failed for jobs the server closed (terminated, timed out).
  const jobIndexWatcher = new JobIndexWatcher(deps).start();
  // The email return path (bounces and feedback reports), when configured; it binds in the background.
  const returnPath = startConfiguredReturnPath(deps);
  return {
    async stop() {
      await (await returnPath)?.stop();
      await dispatcher.stop();
      await siteEventRelay.stop();
      await emailRedispatcher.stop();
      await alertRelay.stop();
      await jobIndexWatcher.stop();
      await closeEmailRuntime(deps); // the key-change listener and the last usage flush
      await closeAgentKeyCache(deps); // the agent-key change listener
      await closeRelays(); // pooled SMTP connections to the relay
      await closeTurnWakeups(); // the LISTEN connection of chat-turn waits
    },
  };
}
