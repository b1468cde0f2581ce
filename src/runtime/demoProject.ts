import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { putProjectSettings } from '../commerce/bindings/service';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { createDeployment, listProjectDeployments, rotateDeploymentSecret, updateDeploymentBaseUrl } from '../projects/deployments/service';
import { createProject, findOwnProject } from '../projects/service';
import type { DeployedSite } from '../sandbox/deployedSite';
import { setBinding } from '../sitePlatform/connections/service';

/** Names the demo project of this DATA_DIR, so later starts find it again instead of making another. */
export const DEMO_PROJECT_FILE = 'sandbox-demo-project';

export interface DemoProject {
  projectId: string;
  deploymentId: string;
  /** Whether the site binding names the demo site (it can once the demo site is connected; until then it inherits). */
  siteBound: boolean;
}

/**
 * `start --sandbox`: the account's demo project (service-hosted, made once per DATA_DIR), bound through the same
 * services the routes use: commerce settings `inherit` (the demo shop becomes the account default on its first
 * connect) and the site platform binding `inherit`, naming the demo site once the account has it. Its production
 * deployment points at this start's loopback deployed site, whose port is new on every start, so the base URL is
 * updated and the secret rotated each time and handed to the site (the secret is never written anywhere else).
 */
export async function ensureDemoProject(deps: AppDeps, accountId: string, site: DeployedSite, demoSiteId: string): Promise<DemoProject> {
  const file = path.resolve(deps.config.DATA_DIR, DEMO_PROJECT_FILE);
  const remembered = (await readFile(file, 'utf8').catch(() => '')).trim();
  let project = remembered ? await findOwnProject(deps.db, accountId, remembered) : undefined;
  if (!project) {
    project = await createProject(deps.db, accountId, { name: 'Demo project', host: 'www.demo-site.example.test', kind: 'service_hosted' });
    await writeFile(file, `${project.id}\n`, { mode: 0o600 });
  }
  await putProjectSettings(deps.db, accountId, project.id, { override_mode: 'inherit', connection_id: null, storefront_api_version: null });
  const siteBound = await bindDemoSite(deps, accountId, project.id, demoSiteId);

  const production = (await listProjectDeployments(deps.db, accountId, project.id)).find((d) => d.environment === 'production');
  if (!production) {
    const { deployment, secret } = await createDeployment(deps, accountId, project.id, {
      environment: 'production',
      base_url: site.baseUrl,
    });
    site.secret = secret;
    return { projectId: project.id, deploymentId: deployment.id, siteBound };
  }
  await updateDeploymentBaseUrl(deps, accountId, project.id, production.id, site.baseUrl);
  site.secret = (await rotateDeploymentSecret(deps, accountId, project.id, production.id)).secret;
  return { projectId: project.id, deploymentId: production.id, siteBound };
}

/** The demo site when the account has it (connected once), else inherit with no site. */
async function bindDemoSite(deps: AppDeps, accountId: string, projectId: string, demoSiteId: string): Promise<boolean> {
  try {
    await setBinding(deps, accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: demoSiteId });
    return true;
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'invalid_reference')) throw err;
    await setBinding(deps, accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: null });
    return false;
  }
}
