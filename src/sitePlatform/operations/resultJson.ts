import { z } from 'zod';
import { CONTENT_SOURCES } from '../../projects/json';

export const snapshotKindSchema = z.enum(['schema', 'items']);

export const snapshotInfoSchema = z
  .object({ kind: snapshotKindSchema, cached: z.boolean(), fetched_at: z.string() })
  .describe('Reads served by the CMS snapshot cache: which snapshot, whether this answer came from it, and when it was fetched.');

/** What an operation route answers: the action and the platform's answer (or the service action's), passed on as it came. */
export const operationResultSchema = z
  .object({
    action: z.string(),
    result: z.unknown().describe("The platform's answer to the call, as the platform sent it (its API reference describes it)."),
    snapshot: snapshotInfoSchema.optional(),
  })
  .meta({ id: 'SitePlatformOperationResult' });

export const cmsCapabilitiesSchema = z
  .object({
    project_id: z.string(),
    provider: z.enum(CONTENT_SOURCES),
    external_platform: z.literal('site_platform').nullable(),
    project_type: z.enum(['external_site', 'native_site']),
    site_id: z.string().nullable(),
    site_platform_connected: z.boolean(),
    can_publish_items_to_site: z.boolean(),
    reverted_at: z.string().nullable(),
  })
  .meta({ id: 'CmsCapabilities' });

export type OperationResult = z.output<typeof operationResultSchema>;
export type SnapshotKind = z.output<typeof snapshotKindSchema>;
export type SnapshotInfo = z.output<typeof snapshotInfoSchema>;
