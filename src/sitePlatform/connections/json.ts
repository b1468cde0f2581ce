import { z } from 'zod';
import type { BindingRow, ConnectionRow, OAuthClientRow, SiteRow } from './store';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A connection as answered: never the token, only whether one is held. */
export const connectionSchema = z
  .object({
    id: z.string(),
    status: z.enum(['active', 'disconnected']),
    auth_kind: z.enum(['oauth', 'site_token']),
    purpose: z.enum(['account_default', 'project_override']),
    project_id: z.string().nullable(),
    scope: z.array(z.string()),
    authorized_user_email: z.string().nullable(),
    workspace_id: z.string().nullable(),
    rate_limit_per_minute: z.number().int().nullable(),
    oauth_app_id: z.string().nullable(),
    last_introspected_at: z.string().nullable(),
    installed_at: z.string().nullable(),
    disconnected_at: z.string().nullable(),
    last_synced_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SitePlatformConnection' });

export const toConnectionJson = (row: ConnectionRow): z.infer<typeof connectionSchema> => ({
  id: row.id,
  status: row.disconnected_at ? 'disconnected' : 'active',
  auth_kind: row.auth_kind,
  purpose: row.purpose,
  project_id: row.project_id,
  scope: (row.scope ?? '').split(/[\s,]+/).filter(Boolean),
  authorized_user_email: row.authorized_user_email,
  workspace_id: row.workspace_id,
  rate_limit_per_minute: row.rate_limit_per_minute,
  oauth_app_id: row.oauth_app_id,
  last_introspected_at: iso(row.last_introspected_at),
  installed_at: iso(row.installed_at),
  disconnected_at: iso(row.disconnected_at),
  last_synced_at: iso(row.last_synced_at),
  created_at: iso(row.created_at)!,
});

export const siteSchema = z
  .object({
    site_id: z.string(),
    connection_id: z.string().nullable(),
    display_name: z.string(),
    short_name: z.string().nullable(),
    custom_domains: z.array(z.object({ id: z.string(), url: z.string() })),
    locales: z.record(z.string(), z.unknown()),
    last_published_at: z
      .string()
      .nullable()
      .describe(
        "The site's last successful publish, for this account: the platform's record at connect, a successful site_publish operation's answer, a site_publish delivery. The newest wins; nothing moves it backwards.",
      ),
    last_publish_requested_at: z.string().nullable(),
  })
  .meta({ id: 'SitePlatformSite' });

export const toSiteJson = (row: SiteRow): z.infer<typeof siteSchema> => ({
  site_id: row.site_id,
  connection_id: row.connection_id,
  display_name: row.display_name,
  short_name: row.short_name,
  custom_domains: row.custom_domains,
  locales: row.locales,
  last_published_at: iso(row.last_published_at),
  last_publish_requested_at: iso(row.last_publish_requested_at),
});

export const oauthClientSchema = z
  .object({ id: z.string(), name: z.string().nullable(), client_id: z.string(), created_at: z.string() })
  .meta({ id: 'SitePlatformOAuthClient' });

/** Never the secret. */
export const toOAuthClientJson = (row: OAuthClientRow): z.infer<typeof oauthClientSchema> => ({
  id: row.id,
  name: row.name,
  client_id: row.client_id,
  created_at: iso(row.created_at)!,
});

export const bindingSchema = z
  .object({
    project_id: z.string(),
    override_mode: z.enum(['inherit', 'override', 'disabled']),
    connection_id: z.string().nullable(),
    site_id: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'SitePlatformBinding' });

export const toBindingJson = (row: BindingRow): z.infer<typeof bindingSchema> => ({
  project_id: row.project_id,
  override_mode: row.override_mode,
  connection_id: row.connection_id,
  site_id: row.site_id,
  updated_at: iso(row.updated_at)!,
});
