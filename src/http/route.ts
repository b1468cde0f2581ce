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
  /** The same answer in other media types, chosen by the request's `Accept`: `{ 'text/html': htmlPageSchema }`. */
  otherMediaTypes?: Record<string, z.ZodType>;
}

import type { ErrorSpec } from './errors';

export type { ErrorSpec };

export type Responses = Record<number, ResponseSpec>;

export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends Responses = Responses> {
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
  responses: R;
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

type MainBodyOf<S> = S extends { contentType: string }
  ? unknown
  : S extends { schema: infer Z extends z.ZodType }
    ? z.output<Z>
    : undefined;

/**
 * The body a response spec promises: its schema's output for JSON, anything for another media type (a stream, a
 * page), nothing when it declares neither; or one of its other media types' bodies.
 */
export type BodyOf<S> = S extends { otherMediaTypes: Record<string, infer A extends z.ZodType> }
  ? MainBodyOf<S> | z.output<A>
  : MainBodyOf<S>;

type Answer<Status, S> =
  undefined extends BodyOf<S>
    ? { status: Status; body?: BodyOf<S>; headers?: Record<string, string> }
    : { status: Status; body: BodyOf<S>; headers?: Record<string, string> };

/**
 * What a handler may answer: one of the statuses its spec declares, with that status's body, so an answer that
 * departs from the document fails the typecheck. A 200 may leave its status out.
 */
export type AnswerOf<R> = {
  [K in keyof R & number]: Answer<K, R[K]> | (K extends 200 ? Omit<Answer<K, R[K]>, 'status'> & { status?: undefined } : never);
}[keyof R & number];

export type RouteHandler<P, Q, B, A = RouteResult> = (input: RouteInput<P, Q, B>) => Promise<A>;

export interface RouteDef {
  spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>;
  // The table holds routes of every shape; each handler was checked against its own schemas by route().
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler: (input: RouteInput<any, any, any>) => Promise<RouteResult>;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/**
 * The handler a spec takes: its input typed from the spec's schemas, its answer from the spec's `responses`. The
 * responses are inferred from the spec alone (NoInfer), so an answer that departs names the route in the typecheck.
 */
export type SpecHandler<P, Q, B, R> = RouteHandler<Out<P>, Out<Q>, Out<B>, AnswerOf<NoInfer<R>>>;

/** Declares a route: its schemas type the handler's input and its answer, and the same spec feeds the OpenAPI document. */
export function route<
  P extends z.ZodType = never,
  Q extends z.ZodType = never,
  B extends z.ZodType = never,
  const R extends Responses = Responses,
>(spec: RouteSpec<P, Q, B, R>, handler: SpecHandler<P, Q, B, R>): RouteDef {
  return { spec: spec as unknown as RouteDef['spec'], handler };
}

/** `/api/x/{id}` → `/api/x/:id` for the Koa router. */
export function koaPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}
