/** Permissions an agent API key can carry. A key holds only what it is given. */
export const PERMISSIONS = [
  'crm:read',
  'crm:write',
  'jobs:read',
  'jobs:write',
  'marketing.content:read',
  'marketing.content:create',
  'marketing.content:update',
  'marketing.reports:read',
  'projects:read',
  'projects:write',
  'site_platform:read',
  'site_platform:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
