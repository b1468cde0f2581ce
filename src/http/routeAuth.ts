import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { ErrorSpec } from './errors';

/**
 * The credential types of routes: `spec` is what a route declares (`spec.auth`), `context` what its handler receives
 * (`input.auth`). http/ names no area, so the auth area registers its types here by declaration merging
 * (src/auth/routeAuth.ts); every route is then typed against them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface RouteAuthTypes {}

type Registered<K extends 'spec' | 'context'> = RouteAuthTypes extends { [P in K]: infer T } ? T : { kind: string };
export type RouteAuthSpec = Registered<'spec'>;
export type RouteAuthContext = Registered<'context'>;

/** How a route's credential shows in the OpenAPI document. */
export interface RouteAuthDocs {
  securitySchemes: Record<string, unknown>;
  securityOf(spec: RouteAuthSpec): Array<Record<string, string[]>>;
  /** The coded errors the credential check itself can answer. */
  errorsOf(spec: RouteAuthSpec): ErrorSpec[];
}

/** The one authentication every route goes through; the composition root (src/app/) hands it to the app. */
export interface RouteAuth {
  /** 401 for a missing or bad credential, 403 for one that may not do this. */
  authenticate(spec: RouteAuthSpec, ctx: Context, deps: AppDeps): Promise<RouteAuthContext>;
  /** The account the caller acts for; idempotent responses are stored per account. */
  accountOf(auth: RouteAuthContext): string;
  docs: RouteAuthDocs;
}
