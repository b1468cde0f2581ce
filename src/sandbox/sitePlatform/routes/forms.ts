/**
 * Forms and submissions. The platform lists a site's forms only once the site has been published after the forms
 * were added; before a first publish every form read answers 409 forms_require_republish.
 */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { paginate, readPageQuery } from '../pagination';
import type { Route, RouteContext } from '../router';
import { siteData, type SimForm, type SimSubmission } from '../siteData';
import type { SimSite } from '../state';
import { findOwned, withSite } from './support';

const updateBody = z.object({ formSubmissionData: z.record(z.string(), z.unknown()) });

const notPublished = (): SimResponse =>
  platformError(
    409,
    'forms_require_republish',
    'Forms are available through the API after the site is published; publish the site and retry',
  );

function formView(site: SimSite, f: SimForm): Record<string, unknown> {
  return {
    ...structuredClone(f),
    siteId: site.id,
    workspaceId: site.workspaceId,
    siteDomainId: site.customDomains[0]?.id ?? null,
    responseSettings: { redirectUrl: null, redirectMethod: 'GET', redirectAction: null, sendEmailConfirmation: false },
  };
}

// The reference's FormSubmission does not name its form; the simulator keeps formId for filtering only.
function submissionView(site: SimSite, s: SimSubmission) {
  const { formId: _form, ...rest } = structuredClone(s);
  return { ...rest, siteId: site.id, workspaceId: site.workspaceId };
}

function published(ctx: RouteContext, siteId: string, then: (site: SimSite) => SimResponse): SimResponse {
  const site = ctx.state.sites.get(siteId)!;
  return site.lastPublished === null ? notPublished() : then(site);
}

function paged<T>(ctx: RouteContext, rows: T[], key: string): SimResponse {
  const q = readPageQuery(ctx.req.query);
  if (!q.ok) return q.response;
  const page = paginate(rows, q.value);
  return json(200, { [key]: page.rows, pagination: page.pagination });
}

function withSubmission(ctx: RouteContext, then: (site: SimSite, s: SimSubmission) => SimResponse): SimResponse {
  const found = findOwned(ctx, 'Form submission', (d) => d.submissions.find((s) => s.id === ctx.req.params.submissionId));
  return found.ok ? published(ctx, found.siteId, (site) => then(site, found.value)) : found.response;
}

export const formRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/forms$/,
    scope: 'forms:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) =>
        site.lastPublished === null
          ? notPublished()
          : paged(
              ctx,
              d.forms.map((f) => formView(site, f)),
              'forms',
            ),
      ),
  },
  {
    method: 'GET',
    pattern: /^\/forms\/(?<formId>[^/]+)$/,
    scope: 'forms:read',
    handle: (ctx) => {
      const found = findOwned(ctx, 'Form', (d) => d.forms.find((f) => f.id === ctx.req.params.formId));
      return found.ok ? published(ctx, found.siteId, (site) => json(200, formView(site, found.value))) : found.response;
    },
  },
  {
    method: 'GET',
    pattern: /^\/forms\/(?<formId>[^/]+)\/submissions$/,
    scope: 'forms:read',
    handle: (ctx) => {
      const found = findOwned(ctx, 'Form', (d) => d.forms.find((f) => f.id === ctx.req.params.formId));
      if (!found.ok) return found.response;
      return published(ctx, found.siteId, (site) =>
        paged(
          ctx,
          siteData(ctx.state, site.id)
            .submissions.filter((s) => s.formId === found.value.id)
            .map((s) => submissionView(site, s)),
          'formSubmissions',
        ),
      );
    },
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/form_submissions$/,
    scope: 'forms:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        if (site.lastPublished === null) return notPublished();
        const elementId = ctx.req.query.get('elementId');
        const rows = d.submissions.filter((s) => elementId === null || s.formId === elementId);
        return paged(
          ctx,
          rows.map((s) => submissionView(site, s)),
          'formSubmissions',
        );
      }),
  },
  {
    method: 'GET',
    pattern: /^\/form_submissions\/(?<submissionId>[^/]+)$/,
    scope: 'forms:read',
    handle: (ctx) => withSubmission(ctx, (site, s) => json(200, submissionView(site, s))),
  },
  {
    method: 'PATCH',
    pattern: /^\/form_submissions\/(?<submissionId>[^/]+)$/,
    scope: 'forms:write',
    handle: (ctx) =>
      withSubmission(ctx, (site, s) => {
        const body = parseBody(ctx.req, updateBody);
        if (!body.ok) return body.response;
        s.formResponse = { ...s.formResponse, ...body.value.formSubmissionData };
        return json(200, submissionView(site, s));
      }),
  },
  {
    method: 'DELETE',
    pattern: /^\/form_submissions\/(?<submissionId>[^/]+)$/,
    scope: 'forms:write',
    handle: (ctx) =>
      withSubmission(ctx, (site, s) => {
        const list = siteData(ctx.state, site.id).submissions;
        list.splice(list.indexOf(s), 1);
        return { status: 204 };
      }),
  },
];
