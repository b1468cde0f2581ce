/**
 * The operation registry: 110 site-platform operations plus project_cms_provider_set, the one table every caller
 * (agent route, dashboard route, MCP tools, chat, workflow nodes) dispatches through.
 *
 * Choices where doc2 leaves the list open ("Full operation list: not shown"), made after the platform's public
 * Data API v2 reference:
 * - Nine beta operations: page_metadata_bulk_update, the four page JSON-LD schema operations, the three llms.txt
 *   operations and comment_user_search. page_dom_get and component_content_get move to beta only when a request
 *   passes with_bindings (see base.ts).
 * - Fourteen Enterprise-only: activity_log_list and the redirect (4), robots.txt (4), well-known (2) and llms.txt (3) sets.
 * - The nine custom-code operations: script_list, script_register_hosted, script_register_inline, the four
 *   site_customcode operations and service_snippet_install / service_snippet_remove (composites over custom code).
 * - Thirty-two confirm-gated: the thirteen the spec lists (cms_item_publish, cms_item_unpublish,
 *   cms_item_unpublish_bulk, site_customcode_upsert, page_customcode_upsert, google_tag_upsert,
 *   service_snippet_install, llms_txt_update, robots_merge, redirect_create, wellknown_create, webhook_create,
 *   project_cms_provider_set) and nineteen others: every delete (fourteen), order_fulfill, order_refund,
 *   robots_replace, webhook_update and site_publish.
 * - Left out to keep the spec's counts: the platform's bulk item delete, live-item create/update, standalone asset
 *   metadata create (asset_upload covers it), site create/update/delete and workspace endpoints (scopes never requested).
 * - webhook_update: the platform has no webhook update (its reference and official SDK list list, create, get and
 *   delete only), so it is a composite that registers the replacement and then deletes the old registration.
 * - Route verb follows kind (read GET, write POST), not the platform method: page_schema_bulk_get is a read sent to
 *   the platform as POST.
 */
import { z } from 'zod';
import { cmsOperations } from './definitions/cms';
import { assetOperations } from './definitions/assets';
import {
  googleTagOperations,
  pageCustomCodeOperations,
  scriptOperations,
  serviceSnippetOperations,
  siteCustomCodeOperations,
} from './definitions/customCode';
import { inventoryOperations, orderOperations, productOperations, skuOperations } from './definitions/ecommerce';
import { commentOperations, formOperations } from './definitions/formsAndComments';
import { componentOperations, pageOperations } from './definitions/pages';
import { serviceOperations } from './definitions/service';
import { llmsTxtOperations, redirectOperations, robotsOperations, wellKnownOperations } from './definitions/siteConfig';
import { siteOperations, tokenOperations, webhookOperations } from './definitions/siteAndToken';
import type { OperationDef } from './types';

export const OPERATIONS: readonly OperationDef[] = Object.freeze([
  ...tokenOperations,
  ...siteOperations,
  ...webhookOperations,
  ...pageOperations,
  ...pageCustomCodeOperations,
  ...componentOperations,
  ...scriptOperations,
  ...siteCustomCodeOperations,
  ...serviceSnippetOperations,
  ...googleTagOperations,
  ...cmsOperations,
  ...assetOperations,
  ...formOperations,
  ...commentOperations,
  ...productOperations,
  ...skuOperations,
  ...orderOperations,
  ...inventoryOperations,
  ...redirectOperations,
  ...robotsOperations,
  ...wellKnownOperations,
  ...llmsTxtOperations,
  ...serviceOperations,
]);

const BY_NAME: ReadonlyMap<string, OperationDef> = new Map(OPERATIONS.map((op) => [op.name, op]));

export const getOperation = (name: string): OperationDef | undefined => BY_NAME.get(name);
export const operationNames = (): string[] => OPERATIONS.map((op) => op.name);

/** Whether the operation's (strict) parameter schema declares `name`. */
export const declaresParam = (op: OperationDef, name: string): boolean => op.params instanceof z.ZodObject && name in op.params.shape;

export { checkGates, type GateContext } from './gates';
export { apiBaseFor, platformPath } from './base';
export { missingScopes, parseScopes, scopeGranted } from './scopes';
export { routeVerb, type ApiBase, type Family, type OperationDef, type OperationKind, type PlatformCall } from './types';
