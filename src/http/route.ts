import type { Context } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import type { RouteAuthContext, RouteAuthSpec } from './routeAuth';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  headers?: Record<string, string>;
  /** Media type of the body (default `application/json`), e.g. `text/event-stream` for a streamed body. */
  contentType?: string;
}

/** A coded error a route can answer, listed in its OpenAPI entry. */
export interface ErrorSpec {
  status: number;
  code: string;
  description: string;
}

export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/crm/contacts/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: RouteAuthSpec;
  params?: P;
  query?: Q;
  body?: B;
  responses: Record<number, ResponseSpec>;
  errors?: ErrorSpec[];
  /** Honour the `Idempotency-Key` header (stored per account, route and key). */
  idempotent?: boolean;
  /** Keep the exact request bytes (`input.rawBody`) and skip JSON parsing. */
  rawBody?: boolean;
  /** Media type of a raw body, for the OpenAPI document (default `application/json`), e.g. `multipart/form-data`. */
  requestContentType?: string;
  /** This route's body limit (413 `payload_too_large` above it); BODY_LIMIT_BYTES when absent. */
  maxBodyBytes?: number;
  /**
   * A credential of the route's own (e.g. a token in the query string) checked before `auth`: a context answers the
   * request in place of `auth`, undefined leaves it to `auth`; it throws its own 401 for a bad one.
   */
  ownCredential?: (ctx: Context, deps: AppDeps) => Promise<RouteAuthContext | undefined>;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  rawBody: Buffer;
  auth: RouteAuthContext;
  deps: AppDeps;
  ctx: Context;
  requestId: string;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler<P, Q, B> = (input: RouteInput<P, Q, B>) => Promise<RouteResult>;

export interface RouteDef {
  spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>;
  // The table holds routes of every shape; each handler was checked against its own schemas by route().
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler: RouteHandler<any, any, any>;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/** Declares a route: its schemas type the handler's input, and the same spec feeds the OpenAPI document. */
export function route<P extends z.ZodType = never, Q extends z.ZodType = never, B extends z.ZodType = never>(
  spec: RouteSpec<P, Q, B>,
  handler: RouteHandler<Out<P>, Out<Q>, Out<B>>,
): RouteDef {
  return { spec: spec as unknown as RouteDef['spec'], handler };
}

/** `/api/x/{id}` → `/api/x/:id` for the Koa router. */
export function koaPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}
