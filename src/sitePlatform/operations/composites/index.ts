import type { PlatformCall } from '../../registry/types';
import { assetUpload } from './assetUpload';
import { pageQuery } from './pageQuery';
import { installSnippet, removeSnippet } from './serviceSnippet';
import { replaceWebhook } from './webhookReplace';
import type { CompositeContext } from './types';

export type { CompositeContext } from './types';

/** Operations that issue more than one platform call (or scan), by registry name. */
const COMPOSITES: Record<string, (ctx: CompositeContext) => Promise<unknown>> = {
  asset_upload: assetUpload,
  page_query: pageQuery,
  service_snippet_install: installSnippet,
  service_snippet_remove: removeSnippet,
  webhook_update: replaceWebhook,
};

export function compositeFor(name: string, platform: PlatformCall): ((ctx: CompositeContext) => Promise<unknown>) | undefined {
  return platform.composite ? COMPOSITES[name] : undefined;
}
