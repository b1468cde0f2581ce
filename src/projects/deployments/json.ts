import { z } from 'zod';
import { iso } from '../../http/fields';
import { SECRET_PREFIX } from './secret';
import { ENVIRONMENTS } from './environments';
import type { DeploymentRow } from './store';

export const deploymentSchema = z
  .object({
    id: z.string(),
    object: z.literal('project_deployment'),
    project_id: z.string(),
    environment: z.enum(ENVIRONMENTS),
    base_url: z.string(),
    secret_hint: z.string().describe(`\`${SECRET_PREFIX}…\` and the secret's last four characters.`),
    last_revalidation_outcome: z.string().nullable().describe('What the last revalidation post came to; null before the first.'),
    last_revalidation_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ProjectDeployment' });

export const deploymentWithSecretSchema = deploymentSchema
  .extend({
    secret: z.string().describe(`The revalidation secret \`${SECRET_PREFIX}<base64url of 32 bytes>\`, shown only in this response.`),
  })
  .meta({ id: 'ProjectDeploymentWithSecret' });

export const deploymentListSchema = z.object({ data: z.array(deploymentSchema) }).meta({ id: 'ProjectDeploymentList' });

export const toDeploymentJson = (row: DeploymentRow): z.infer<typeof deploymentSchema> => ({
  id: row.id,
  object: 'project_deployment',
  project_id: row.project_id,
  environment: row.environment,
  base_url: row.base_url,
  secret_hint: `${SECRET_PREFIX}…${row.secret_hint}`,
  last_revalidation_outcome: row.last_revalidation_outcome,
  last_revalidation_at: iso(row.last_revalidation_at),
  created_at: iso(row.created_at)!,
  updated_at: iso(row.updated_at)!,
});
