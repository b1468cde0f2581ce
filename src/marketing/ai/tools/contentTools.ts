import type { z } from 'zod';
import type { Permission } from '../../../auth/permissions';
import type { ToolDef } from '../types';
import { ECHOED_READ_ONLY, imagesRunArgs, itemArgs, listArgs, researchArgs, updateArgs } from './contentSchemas';
import { parametersOf } from './jsonSchema';

export type ContentToolName =
  | 'content_list'
  | 'content_get'
  | 'content_update'
  | 'content_seo_check'
  | 'content_images_preview'
  | 'content_images_run'
  | 'content_research';

export interface ContentToolSpec {
  name: ContentToolName;
  /** What an agent key must hold: the permission of the agent route the tool stands for. */
  permission: Permission;
  kind: 'read' | 'write';
  description: string;
  args: z.ZodType<Record<string, unknown>>;
  /** Accepted but not offered to the model. */
  hidden?: readonly string[];
}

const PINNED = 'In a chat pinned to a project, only items linked (cms_link) to that project exist.';

export const CONTENT_TOOLS: readonly ContentToolSpec[] = [
  {
    name: 'content_list',
    permission: 'marketing.content:read',
    kind: 'read',
    description: `List marketing content items with filters, newest first; answers { data, total, page, limit }, each item with its url. ${PINNED}`,
    args: listArgs,
  },
  {
    name: 'content_get',
    permission: 'marketing.content:read',
    kind: 'read',
    description: `Read one content item with its grounding, public url and scheduled publish. ${PINNED}`,
    args: itemArgs,
  },
  {
    name: 'content_update',
    permission: 'marketing.content:update',
    kind: 'write',
    description: `Update a content item: absent fields stay, null clears, settings merge; a new version is recorded. ${PINNED}`,
    args: updateArgs,
    hidden: ECHOED_READ_ONLY,
  },
  {
    name: 'content_seo_check',
    permission: 'marketing.content:read',
    kind: 'read',
    description: `Run the pre-publish SEO check of a stored content item (ok, score, findings); writes nothing. ${PINNED}`,
    args: itemArgs,
  },
  {
    name: 'content_images_preview',
    permission: 'marketing.content:read',
    kind: 'read',
    description: `Preview an images run of a content item: its H2 sections, what would be illustrated and the allowance left; spends nothing. ${PINNED}`,
    args: itemArgs,
  },
  {
    name: 'content_images_run',
    permission: 'marketing.content:update',
    kind: 'write',
    description: `Start generating and placing images for a content item (spends image allowance); answers the job id at once, the job runs on. ${PINNED}`,
    args: imagesRunArgs,
  },
  {
    name: 'content_research',
    permission: 'marketing.content:update',
    kind: 'write',
    description: `Start researching a content item (knowledge bases, web search, pages; stored in settings.research); answers the job id at once. ${PINNED}`,
    args: researchArgs,
  },
];

let defs: ReadonlyMap<ContentToolName, ToolDef> | undefined;

/** The tool offered for a spec (built once). */
export function contentToolDef(spec: ContentToolSpec): ToolDef {
  defs ??= new Map(
    CONTENT_TOOLS.map((s) => [
      s.name,
      {
        name: s.name,
        description: s.description,
        parameters: parametersOf(s.args, s.hidden),
        kind: s.kind,
        confirmGated: false,
        family: 'content',
      },
    ]),
  );
  return defs.get(spec.name)!;
}

export const contentToolSpec = (name: string): ContentToolSpec | undefined => CONTENT_TOOLS.find((s) => s.name === name);
