import type { ApiBase, OperationDef } from './types';

// These two read from v2 but move to beta for one request when the caller asks for CMS bindings (spec, Limits).
const BETA_WITH_BINDINGS = new Set(['page_dom_get', 'component_content_get']);

/** The API base of one request: chosen per call from the operation and its parameters, never globally. */
export function apiBaseFor(op: OperationDef, params: Record<string, unknown> = {}): ApiBase | null {
  if (!op.platform) return null;
  if (BETA_WITH_BINDINGS.has(op.name) && (params.with_bindings === true || params.with_bindings === 'true')) return 'beta';
  return op.platform.base;
}

/** The platform path with its `{placeholders}` filled from the parameters (URL-encoded). */
export function platformPath(op: OperationDef, params: Record<string, unknown>): string | null {
  if (!op.platform) return null;
  return op.platform.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw new Error(`missing path parameter ${name} for ${op.name}`);
    return encodeURIComponent(value);
  });
}
