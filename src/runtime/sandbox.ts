import { createHmac } from 'node:crypto';
import { callbackUrl } from '../commerce/oauth/authorizeUrl';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import { startCommerceSimulator, type CommerceSimulator } from '../sandbox/commerce';
import { startDeployedSite } from '../sandbox/deployedSite';
import { startDnsSandbox } from '../sandbox/dns';
import { startSmtpSandbox } from '../sandbox/smtp';
import { sandboxReturnPath } from '../sandbox/smtp/returnPath';
import { startAnalyticsSandbox } from './analyticsSandbox';
import { resolveCommerceTokenKey, type ResolvedTokenKey } from './commerceTokenKey';
import { ensureDemoProject, type DemoProject } from './demoProject';
import { startImageSandbox } from './imageSandbox';
import { startResearchSandbox } from './researchSandbox';
import { startSiteSandbox } from './siteSandbox';

export const DEMO_SHOP = 'demo-shop.commerce.test';
export const DEMO_CLIENT_ID = 'sandbox-demo-app';
const DEMO_ORDERS = 25;

export interface Sandbox {
  /** The stack's configuration pointed at the simulators (one object: the API and the worker share it). */
  config: Config;
  simulator: CommerceSimulator;
  tokenKey: ResolvedTokenKey;
  /** Sets PUBLIC_APP_URL to the API's own URL when unset: the simulator redirects and delivers webhooks there. */
  serveAt(apiUrl: string): void;
  /** Once the API runs and the account exists: the demo project, its bindings and its deployment (idempotent). */
  prepareDemoProject(deps: AppDeps, accountId: string): Promise<void>;
  bannerLines(apiUrl: string): string[];
  stop(): Promise<void>;
}

/**
 * `start --sandbox`: the commerce platform simulated on loopback (and the research providers: researchSandbox.ts;
 * the site platform: siteSandbox.ts; image generation: imageSandbox.ts; web analytics: analyticsSandbox.ts),
 * with a demo app and a demo shop holding a few orders, so the whole connect → webhooks → backfill path runs with no
 * platform account. The demo app's secret is derived from the credential hash key, so it stays the same across
 * restarts of one DATA_DIR (the simulator's own state — tokens, subscriptions — lives in memory: connect the shop
 * again after a restart).
 */
export async function startSandbox(config: Config): Promise<Sandbox> {
  const tokenKey = await resolveCommerceTokenKey(config);
  const simulator = await startCommerceSimulator();
  const demoSecret = `csec_${createHmac('sha256', config.SECRET_HASH_KEY!).update('commerce-sandbox-demo-app').digest('hex').slice(0, 32)}`;
  simulator.addApp({ clientId: DEMO_CLIENT_ID, clientSecret: demoSecret });
  simulator.addShop({ domain: DEMO_SHOP, name: 'Demo shop' });
  simulator.addOrders(DEMO_SHOP, DEMO_ORDERS);
  const research = await startResearchSandbox();
  const images = await startImageSandbox();
  const analytics = await startAnalyticsSandbox();
  const site = await startSiteSandbox(config);
  const dns = await startDnsSandbox({ control: true });
  const sandboxConfig: Config = analytics.configure(
    site.configure(
      images.configure(
        research.configure({
          ...config,
          COMMERCE_SHOP_URL_TEMPLATE: simulator.shopUrlTemplate,
          COMMERCE_TOKEN_ENCRYPTION_KEY: tokenKey.key,
        }),
      ),
    ),
  );
  sandboxConfig.EMAIL_DNS_SERVERS = dns.address;
  Object.assign(sandboxConfig, await sandboxReturnPath(sandboxConfig));
  const smtp = await startSmtpSandbox({
    outcomes: { returnPath: { host: sandboxConfig.EMAIL_RETURN_PATH_HOST, port: sandboxConfig.EMAIL_RETURN_PATH_PORT } },
  });
  sandboxConfig.SMTP_URL = smtp.url;
  const deployedSite = await startDeployedSite();
  let demo: DemoProject | string | undefined;

  return {
    config: sandboxConfig,
    simulator,
    tokenKey,
    serveAt(apiUrl) {
      sandboxConfig.PUBLIC_APP_URL ??= apiUrl;
    },
    async prepareDemoProject(deps, accountId) {
      try {
        demo = await ensureDemoProject(deps, accountId, deployedSite, site.demoSiteId);
        await analytics.prepareDemoProject(deps, accountId, demo.projectId);
      } catch (err) {
        demo = err instanceof Error ? err.message : String(err);
      }
    },
    bannerLines(apiUrl) {
      const auth = '-H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"';
      return [
        'Sandbox: the commerce platform is simulated on loopback (its state is in memory: connect again after a restart).',
        `  Simulator    ${simulator.baseUrl}   (COMMERCE_SHOP_URL_TEMPLATE=${simulator.shopUrlTemplate})`,
        `  Demo shop    ${DEMO_SHOP} (${DEMO_ORDERS} orders), demo app client_id ${DEMO_CLIENT_ID}`,
        `  Token key    ${tokenKey.file ?? 'COMMERCE_TOKEN_ENCRYPTION_KEY'}`,
        '  Connect the demo shop end to end, with TOKEN set to the owner session token:',
        `    1. curl -X PUT ${apiUrl}/api/commerce/app ${auth} -d '{"client_id":"${DEMO_CLIENT_ID}","client_secret":"${demoSecret}"}'`,
        `    2. curl -X POST ${apiUrl}/api/commerce/connect ${auth} -d '{"shop_domain":"${DEMO_SHOP}"}'`,
        '    3. Open the authorize_url it answers in a browser: the simulator approves at once and redirects to',
        `       ${callbackUrl(sandboxConfig.PUBLIC_APP_URL ?? apiUrl)}, which stores the connection and registers the shop's webhooks.`,
        ...research.bannerLines(),
        ...images.bannerLines(),
        ...analytics.bannerLines(),
        ...site.bannerLines(apiUrl, sandboxConfig.PUBLIC_APP_URL ?? apiUrl),
        `Sandbox: live-key email goes to a catch-all SMTP relay on ${smtp.url} (SMTP_URL); nothing leaves this machine.`,
        `  Outcomes     the relay answers with DSNs to the return path ${sandboxConfig.EMAIL_RETURN_PATH_DOMAIN} on port ${sandboxConfig.EMAIL_RETURN_PATH_PORT}: send to bounced@…, complained@…, delayed@… (any domain) to see email.bounced / email.complained / email.delivery_delayed`,
        ...demoProjectLines(demo, deployedSite.baseUrl),
        `Sandbox: DNS for sender domains on ${dns.address} (EMAIL_DNS_SERVERS). Publish every record of a domain (ownership, DKIM, return path, DMARC), then verify it; live keys then send DKIM-signed mail from it:`,
        `  curl -s ${apiUrl}/v1/email/domains/<id> -H "Authorization: Bearer $EMAIL_KEY" | curl -X POST ${dns.controlUrl}/publish --data-binary @-`,
        `  curl -X POST ${apiUrl}/v1/email/domains/<id>/verify -H "Authorization: Bearer $EMAIL_KEY"`,
        `  One record by hand: curl -X PUT ${dns.controlUrl}/records/<name> -d '{"txt":["…"]}' (or '{"mx":[{"exchange":"…","priority":10}]}')`,
      ];
    },
    stop: async () => {
      await Promise.all([
        simulator.stop(),
        research.stop(),
        images.stop(),
        analytics.stop(),
        site.stop(),
        dns.stop(),
        smtp.stop(),
        deployedSite.stop(),
      ]);
    },
  };
}

function demoProjectLines(demo: DemoProject | string | undefined, siteUrl: string): string[] {
  if (demo === undefined) return [];
  if (typeof demo === 'string') return [`Sandbox: the demo project could not be prepared: ${demo}`];
  return [
    `Sandbox: demo project ${demo.projectId} (service-hosted), bound to the demo shop (commerce settings inherit the account default)`,
    `  and the demo site (${demo.siteBound ? 'site binding names it' : 'site binding inherits; it names the demo site on the start after you connect it'}).`,
    `  Its production deployment ${demo.deploymentId} is a loopback deployed site on ${siteUrl}: product and collection webhooks of the`,
    `  demo shop post signed cache tags to ${siteUrl}/api/revalidate; see what it received: curl ${siteUrl}/api/revalidations`,
  ];
}
