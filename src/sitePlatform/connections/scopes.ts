/** The 22 scopes the service requests (doc2, Scopes). No users:* and no workspace_activity:read, on purpose. */
export const REQUESTED_SCOPES = [
  'sites:read', 'sites:write',
  'pages:read', 'pages:write',
  'cms:read', 'cms:write',
  'assets:read', 'assets:write',
  'forms:read', 'forms:write',
  'custom_code:read', 'custom_code:write',
  'components:read', 'components:write',
  'ecommerce:read', 'ecommerce:write',
  'comments:read', 'comments:write',
  'site_config:read', 'site_config:write',
  'site_activity:read',
  'authorized_user:read',
] as const;
