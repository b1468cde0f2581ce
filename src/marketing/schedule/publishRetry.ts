import type { Config } from '../../config';
import type { PublishRetry } from '../../../workflows/contentPublish.contract';

/** The retry of a scheduled publish at its time, as the workflow input carries it (ContentPublishInput.retry). */
export function publishRetryOf(
  config: Pick<Config, 'CONTENT_PUBLISH_RETRY_INITIAL_MS' | 'CONTENT_PUBLISH_RETRY_MAX_MS' | 'CONTENT_PUBLISH_RETRY_ATTEMPTS'>,
): PublishRetry {
  return {
    initialIntervalMs: config.CONTENT_PUBLISH_RETRY_INITIAL_MS,
    maximumIntervalMs: Math.max(config.CONTENT_PUBLISH_RETRY_INITIAL_MS, config.CONTENT_PUBLISH_RETRY_MAX_MS),
    maximumAttempts: config.CONTENT_PUBLISH_RETRY_ATTEMPTS,
  };
}
