/** Comment threads per site: list, get, resolve (PATCH `resolved`), replies, and the user search by exact email for mentions. */
import { z } from 'zod';
import { emitCommentCreated } from '../events';
import { json, parseBody, parseWith, type SimResponse } from '../http';
import { paginate, readPageQuery } from '../pagination';
import type { Route, RouteContext } from '../router';
import type { SimComment, SiteData } from '../siteData';
import { iso, newId, type SimSite } from '../state';
import { missing, withSite } from './support';

const resolveBody = z.object({ resolved: z.boolean() });
const userQuery = z.object({ email: z.email() });
const replyBody = z.object({ content: z.string().min(1).max(10_000) });

/** A thread head as the reference's CommentThread: its page link and breakpoint, no thread id of its own. */
function threadView(site: SimSite, c: SimComment) {
  const { threadId: _thread, ...rest } = structuredClone(c);
  return {
    ...rest,
    siteId: site.id,
    localeId: site.locales.primary.id,
    breakpoint: 'main',
    url: `https://${site.shortName}.sim.test/?comment=${c.id}`,
    mentionedUsers: [],
  };
}

/** A reply as the reference's CommentReply: `commentId` names the thread it answers. */
function replyView(site: SimSite, c: SimComment) {
  const { threadId, ...rest } = structuredClone(c);
  return { ...rest, commentId: threadId, siteId: site.id, localeId: site.locales.primary.id, breakpoint: 'main', mentionedUsers: [] };
}

function paged(ctx: RouteContext, rows: unknown[]): SimResponse {
  const q = readPageQuery(ctx.req.query);
  if (!q.ok) return q.response;
  const page = paginate(rows, q.value);
  return json(200, { comments: page.rows, pagination: page.pagination });
}

/** A thread is its first comment; replies share its threadId. */
function withThread(ctx: RouteContext, then: (site: SimSite, head: SimComment, d: SiteData) => SimResponse): SimResponse {
  return withSite(ctx, (site, d) => {
    const head = d.comments.find((c) => c.id === ctx.req.params.threadId && c.threadId === c.id);
    return head ? then(site, head, d) : missing('Comment thread');
  });
}

const THREAD = /^\/sites\/(?<siteId>[^/]+)\/comments\/(?<threadId>(?!users$)[^/]+)$/;
const REPLIES = /^\/sites\/(?<siteId>[^/]+)\/comments\/(?<threadId>[^/]+)\/replies$/;

export const commentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/comments$/,
    scope: 'comments:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) =>
        paged(
          ctx,
          d.comments.filter((c) => c.threadId === c.id).map((c) => threadView(site, c)),
        ),
      ),
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/comments\/users$/,
    scope: 'comments:read',
    handle: (ctx) =>
      withSite(ctx, () => {
        const q = parseWith(userQuery, { email: ctx.req.query.get('email') ?? undefined });
        if (!q.ok) return q.response;
        const u = ctx.state.user;
        // Exact email match only; no user answers an empty list.
        const users = [{ userId: u.id, email: u.email, name: `${u.firstName} ${u.lastName}` }].filter(
          (x) => x.email.toLowerCase() === q.value.email.toLowerCase(),
        );
        return json(200, { users });
      }),
  },
  {
    method: 'GET',
    pattern: THREAD,
    scope: 'comments:read',
    handle: (ctx) => withThread(ctx, (site, head) => json(200, threadView(site, head))),
  },
  {
    method: 'PATCH',
    pattern: THREAD,
    scope: 'comments:write',
    handle: (ctx) =>
      withThread(ctx, (site, head, d) => {
        const body = parseBody(ctx.req, resolveBody);
        if (!body.ok) return body.response;
        const now = iso(ctx.state.now());
        for (const c of d.comments)
          if (c.threadId === head.id) {
            c.isResolved = body.value.resolved;
            c.lastUpdated = now;
          }
        return json(200, threadView(site, head));
      }),
  },
  {
    method: 'GET',
    pattern: REPLIES,
    scope: 'comments:read',
    handle: (ctx) =>
      withThread(ctx, (site, head, d) =>
        paged(
          ctx,
          d.comments.filter((c) => c.threadId === head.id && c.id !== head.id).map((c) => replyView(site, c)),
        ),
      ),
  },
  {
    method: 'POST',
    pattern: REPLIES,
    scope: 'comments:write',
    handle: (ctx) =>
      withThread(ctx, (site, head, d) => {
        const body = parseBody(ctx.req, replyBody);
        if (!body.ok) return body.response;
        const now = iso(ctx.state.now());
        const u = ctx.state.user;
        const reply: SimComment = {
          id: newId(),
          threadId: head.id,
          pageId: head.pageId,
          content: body.value.content,
          isResolved: head.isResolved,
          author: { userId: u.id, email: u.email, name: `${u.firstName} ${u.lastName}` },
          createdOn: now,
          lastUpdated: now,
        };
        d.comments.push(reply);
        emitCommentCreated(ctx.state, site, reply);
        return json(200, replyView(site, reply));
      }),
  },
];
