import { Context } from '@temporalio/activity';
import type { SitePlatformDeps } from '../src/sitePlatform/connections/deps';
import type { ActivityDeps } from './deps';

/** The site platform services' deps from an activity's: the URL-token key is SECRET_HASH_KEY of the worker's config. */
export function siteDepsOf(deps: ActivityDeps): SitePlatformDeps {
  return {
    db: deps.db,
    config: deps.config,
    logger: deps.logger,
    get secretHashKey() {
      return deps.config.SECRET_HASH_KEY ?? '';
    },
  };
}

/** The audit actor of platform writes an activity makes for its workflow: `workflow:<workflowId>:<runId>`. */
export function workflowActor(): string {
  const run = Context.current().info.workflowExecution;
  return `workflow:${run?.workflowId ?? 'unknown'}:${run?.runId ?? 'unknown'}`;
}
