import type { z } from 'zod';

export type Family =
  | 'site'
  | 'page'
  | 'component'
  | 'cms'
  | 'asset'
  | 'script'
  | 'site_customcode'
  | 'service_snippet'
  | 'google_tag'
  | 'form'
  | 'comment'
  | 'product'
  | 'order'
  | 'sku'
  | 'inventory'
  | 'redirect'
  | 'robots'
  | 'wellknown'
  | 'llms_txt'
  | 'webhook'
  | 'token'
  | 'activity_log_list'
  | 'service';

export type OperationKind = 'read' | 'write';
export type ApiBase = 'v2' | 'beta';
export type PlatformMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the operation reaches the platform. `path` holds `{site_id}`-style placeholders named after parameters. */
export interface PlatformCall {
  method: PlatformMethod;
  path: string;
  base: ApiBase;
  /** A DELETE whose parameters travel as a JSON body (the platform reads them there, not from the query). */
  deleteBody?: boolean;
  /** Set when a composite or a client-side scan issues more than this one call. */
  composite?: 'asset_upload' | 'page_scan' | 'snippet' | 'webhook_replace';
}

export interface OperationDef {
  name: string;
  family: Family;
  kind: OperationKind;
  /** Null only for the service-side action, which never calls the platform. */
  platform: PlatformCall | null;
  scopes: readonly string[];
  confirmGated: boolean;
  requiresOAuth: boolean;
  localeGated: boolean;
  /** Advisory: the platform answers 402 not_enterprise_plan_site; the service does not gate on it. */
  enterpriseOnly: boolean;
  /** The parameter naming the one target a single-target write locks; null when the write takes no lock. */
  lockTarget: string | null;
  claimsIdempotencySlot: boolean;
  params: z.ZodType<Record<string, unknown>>;
  /** How the operation departs from a plain platform call (e.g. the platform lacks the endpoint), shown to callers. */
  note?: string;
}

/** The route verb a caller must use: reads are GET, writes are POST, whatever the platform method is. */
export const routeVerb = (op: Pick<OperationDef, 'kind'>): 'GET' | 'POST' => (op.kind === 'read' ? 'GET' : 'POST');
