import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { projectNotFoundError } from '../docs';
import { projectTwin } from '../twins';
import * as docs from './docs';
import { deploymentListSchema, deploymentSchema, deploymentWithSecretSchema, toDeploymentJson } from './json';
import * as deployments from './service';
import { ENVIRONMENTS } from './environments';

const tags = ['Project deployments'];

const deploymentParams = idParams.extend({
  deploymentId: z.string().describe('The deployment (uuid). A malformed or unknown id answers 404 `deployment_not_found`.'),
});

const baseUrlField = z.string().trim().min(1, { error: 'must not be empty' }).describe(docs.BASE_URL);
const createBody = z.strictObject({
  environment: z.enum(ENVIRONMENTS).describe('`production`, `staging` or `dev`; one deployment per environment.'),
  base_url: baseUrlField,
});
const patchBody = z.strictObject({ base_url: baseUrlField });

const notServiceHosted = {
  status: 409,
  code: 'project_not_service_hosted',
  description: 'The project is `platform_hosted`: only service-hosted projects have deployments.',
};
const deploymentMissing = { status: 404, code: 'deployment_not_found', description: 'No deployment with this id in this project.' };
const badUrl = { status: 400, code: 'validation_failed', description: `\`body.base_url\` breaks the rule: ${docs.BASE_URL}` };
/** What every deployment route may answer about its project, and about the deployment in its path. */
const projectErrors = [projectNotFoundError, notServiceHosted];
const deploymentErrors = [...projectErrors, deploymentMissing];

const twin = projectTwin(tags);

const base = '/projects/{id}/deployments';

/** Deployments of a service-hosted project and their revalidation secrets (doc3 "site revalidation_token"). */
export function deploymentRoutes(): RouteDef[] {
  return [
    ...twin(
      'read',
      {
        method: 'get',
        path: base,
        operationId: 'listProjectDeployments',
        summary: "List a project's deployments.",
        description: docs.LIST,
        params: idParams,
        responses: { 200: { description: 'The deployments', schema: deploymentListSchema } },
        errors: projectErrors,
      },
      async ({ params, auth, deps }) => ({
        body: { data: (await deployments.listProjectDeployments(deps.db, accountOf(auth), params.id)).map(toDeploymentJson) },
      }),
    ),

    ...twin(
      'write',
      {
        method: 'post',
        path: base,
        operationId: 'createProjectDeployment',
        summary: 'Add a deployment; answers its revalidation secret once.',
        description: docs.CREATE,
        params: idParams,
        body: createBody,
        responses: { 201: { description: 'The deployment, with its revalidation secret', schema: deploymentWithSecretSchema } },
        errors: [
          ...projectErrors,
          badUrl,
          { status: 409, code: 'deployment_environment_taken', description: 'The project already has a deployment in this environment.' },
        ],
      },
      async ({ params, body, auth, deps }) => {
        const { deployment, secret } = await deployments.createDeployment(deps, accountOf(auth), params.id, body);
        return { status: 201, body: { ...toDeploymentJson(deployment), secret } };
      },
    ),

    ...twin(
      'read',
      {
        method: 'get',
        path: `${base}/{deploymentId}`,
        operationId: 'getProjectDeployment',
        summary: 'Read a deployment (never its secret).',
        description: docs.GET,
        params: deploymentParams,
        responses: { 200: { description: 'The deployment', schema: deploymentSchema } },
        errors: deploymentErrors,
      },
      async ({ params, auth, deps }) => ({
        body: toDeploymentJson(await deployments.getDeployment(deps.db, accountOf(auth), params.id, params.deploymentId)),
      }),
    ),

    ...twin(
      'write',
      {
        method: 'patch',
        path: `${base}/{deploymentId}`,
        operationId: 'updateProjectDeployment',
        summary: "Change a deployment's base URL.",
        description: docs.PATCH,
        params: deploymentParams,
        body: patchBody,
        responses: { 200: { description: 'The deployment', schema: deploymentSchema } },
        errors: [...deploymentErrors, badUrl],
      },
      async ({ params, body, auth, deps }) => ({
        body: toDeploymentJson(
          await deployments.updateDeploymentBaseUrl(deps, accountOf(auth), params.id, params.deploymentId, body.base_url),
        ),
      }),
    ),

    ...twin(
      'write',
      {
        method: 'delete',
        path: `${base}/{deploymentId}`,
        operationId: 'deleteProjectDeployment',
        summary: 'Delete a deployment.',
        description: docs.DELETE,
        params: deploymentParams,
        responses: { 204: { description: 'Deleted' } },
        errors: deploymentErrors,
      },
      async ({ params, auth, deps }) => {
        await deployments.deleteDeployment(deps.db, accountOf(auth), params.id, params.deploymentId);
        return { status: 204 };
      },
    ),

    ...twin(
      'write',
      {
        method: 'post',
        path: `${base}/{deploymentId}/rotate-secret`,
        operationId: 'rotateProjectDeploymentSecret',
        summary: "Replace a deployment's revalidation secret; answers the new one once.",
        description: docs.ROTATE,
        params: deploymentParams,
        responses: { 200: { description: 'The deployment, with its new revalidation secret', schema: deploymentWithSecretSchema } },
        errors: deploymentErrors,
      },
      async ({ params, auth, deps }) => {
        const { deployment, secret } = await deployments.rotateDeploymentSecret(deps, accountOf(auth), params.id, params.deploymentId);
        return { body: { ...toDeploymentJson(deployment), secret } };
      },
    ),
  ];
}
