import type { z } from 'zod';
import type { ApiBase, Family, OperationDef, PlatformCall, PlatformMethod } from './types';

interface Options {
  scopes?: readonly string[];
  confirm?: boolean;
  oauth?: boolean;
  locale?: boolean;
  enterprise?: boolean;
  lock?: string;
  /** False only for the four publish-state operations the spec names. */
  idempotent?: boolean;
  composite?: PlatformCall['composite'];
  base?: ApiBase;
  deleteBody?: boolean;
  /** How the operation departs from a plain platform call, for callers (MCP tool descriptions). */
  note?: string;
}

type Params = z.ZodType<Record<string, unknown>>;

function call(method: PlatformMethod, path: string, o: Options): PlatformCall {
  const c: PlatformCall = { method, path, base: o.base ?? 'v2' };
  if (o.composite) c.composite = o.composite;
  if (o.deleteBody) c.deleteBody = true;
  return c;
}

function build(
  name: string,
  family: Family,
  kind: 'read' | 'write',
  platform: PlatformCall | null,
  params: Params,
  o: Options,
): OperationDef {
  return {
    name,
    family,
    kind,
    platform,
    params,
    scopes: o.scopes ?? [],
    confirmGated: o.confirm ?? false,
    requiresOAuth: o.oauth ?? false,
    localeGated: o.locale ?? false,
    enterpriseOnly: o.enterprise ?? false,
    lockTarget: kind === 'write' ? (o.lock ?? null) : null,
    claimsIdempotencySlot: kind === 'write' && (o.idempotent ?? true),
    ...(o.note ? { note: o.note } : {}),
  };
}

export const read = (name: string, family: Family, method: PlatformMethod, path: string, params: Params, o: Options = {}) =>
  build(name, family, 'read', call(method, path, o), params, o);

export const write = (name: string, family: Family, method: PlatformMethod, path: string, params: Params, o: Options = {}) =>
  build(name, family, 'write', call(method, path, o), params, o);

export const serviceWrite = (name: string, params: Params, o: Options = {}) => build(name, 'service', 'write', null, params, o);
