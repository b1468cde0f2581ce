import { z } from 'zod';
import { iso } from '../http/fields';
import { listEnvelopeSchema } from '../http/pagination';
import type { ProjectRow } from './store';

export const PROJECT_KINDS = ['service_hosted', 'platform_hosted'] as const;
export const CONTENT_SOURCES = ['native', 'site_platform'] as const;

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    host: z.string().nullable(),
    kind: z.enum(PROJECT_KINDS),
    content_source: z.enum(CONTENT_SOURCES),
    analytics_site_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Project' });

export type ProjectJson = z.infer<typeof projectSchema>;

export const toProjectJson = (row: ProjectRow): ProjectJson => ({
  id: row.id,
  name: row.name,
  host: row.host,
  kind: row.kind,
  content_source: row.content_source,
  analytics_site_id: row.analytics_site_id,
  created_at: iso(row.created_at)!,
  updated_at: iso(row.updated_at)!,
});

export const projectListSchema = listEnvelopeSchema(projectSchema);
