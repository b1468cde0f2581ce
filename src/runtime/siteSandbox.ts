import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config';
import { startSitePlatformSimulator, type SitePlatformSimulator } from '../sandbox/sitePlatform';
import { callbackUrl } from '../sitePlatform/connections/authorizeUrl';
import { REQUESTED_SCOPES } from '../sitePlatform/connections/scopes';
import { persistedKey } from './persistedKey';

export const DEMO_SITE_CLIENT_ID = 'sandbox-demo-site-app';
export const SITE_TOKEN_KEY_FILE = 'site-platform-token-key';
const DEMO_ITEMS = 5;

export interface SiteSandbox {
  simulator: SitePlatformSimulator;
  /** The demo site's platform id (stable across restarts of one DATA_DIR). */
  demoSiteId: string;
  /** The site platform of `config` pointed at the simulator, with the demo OAuth client and a token key. */
  configure(config: Config): Config;
  bannerLines(apiUrl: string, publicAppUrl: string): string[];
  stop(): Promise<void>;
}

const isKey = (text: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64').length === 32;

/** SITE_PLATFORM_TOKEN_ENCRYPTION_KEY when set; else (the sandbox only) a key generated once into DATA_DIR and reused. */
async function resolveSiteTokenKey(config: Config): Promise<{ key: string; source: string }> {
  if (config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY)
    return { key: config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY, source: 'SITE_PLATFORM_TOKEN_ENCRYPTION_KEY' };
  const file = path.resolve(config.DATA_DIR, SITE_TOKEN_KEY_FILE);
  const { key } = await persistedKey({
    file,
    generate: () => randomBytes(32).toString('base64'),
    isValid: isKey,
    invalidMessage: `SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: ${file} does not hold a base64 32-byte key; delete it to generate a new one (stored site tokens stop opening) or set SITE_PLATFORM_TOKEN_ENCRYPTION_KEY`,
  });
  return { key, source: file };
}

/**
 * `start --sandbox`, site platform side: the simulator on loopback with a demo OAuth client (the service-wide one,
 * so quick connect is offered) and a demo site holding a collection of items and a page. The demo secret and the
 * site id derive from the credential hash key, so they stay the same across restarts of one DATA_DIR; the
 * simulator's tokens live in memory, so the pasted token printed in the banner is new on every start.
 */
export async function startSiteSandbox(config: Config): Promise<SiteSandbox> {
  const derive = (label: string) => createHmac('sha256', config.SECRET_HASH_KEY!).update(`site-platform-sandbox-${label}`).digest('hex');
  const tokenKey = await resolveSiteTokenKey(config);
  const simulator = await startSitePlatformSimulator();
  const demoSecret = `csec_${derive('demo-app').slice(0, 32)}`;
  simulator.addApp({ clientId: DEMO_SITE_CLIENT_ID, clientSecret: demoSecret });
  const site = simulator.addSite({
    id: derive('demo-site').slice(0, 24),
    displayName: 'Demo site',
    customDomains: ['www.demo-site.example.test'],
  });
  const collection = simulator.addCollection(site.id, { displayName: 'Posts', singularName: 'Post', fields: [{ slug: 'summary' }] });
  simulator.addItems(
    collection.id,
    Array.from({ length: DEMO_ITEMS }, (_, i) => ({ fieldData: { name: `Demo post ${i + 1}`, summary: `Demo post number ${i + 1}.` } })),
  );
  simulator.addPage(site.id, { title: 'Home', slug: 'index', seo: { description: "The demo site's home page." } });
  const siteToken = simulator.issueToken({ scopes: [...REQUESTED_SCOPES], siteIds: [site.id] });

  return {
    simulator,
    demoSiteId: site.id,
    configure: (base) => ({
      ...base,
      SITE_PLATFORM_API_URL: simulator.baseUrl,
      SITE_PLATFORM_AUTH_URL: simulator.baseUrl,
      SITE_PLATFORM_CLIENT_ID: DEMO_SITE_CLIENT_ID,
      SITE_PLATFORM_CLIENT_SECRET: demoSecret,
      SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: tokenKey.key,
    }),
    bannerLines(apiUrl, publicAppUrl) {
      const auth = '-H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"';
      return [
        'Sandbox: the site platform is simulated on loopback (its state is in memory: connect again after a restart).',
        `  Site platform ${simulator.baseUrl}   (SITE_PLATFORM_API_URL and SITE_PLATFORM_AUTH_URL)`,
        `  Demo site    "${site.displayName}" (site_id ${site.id}): collection Posts (${DEMO_ITEMS} items), page Home; OAuth client_id ${DEMO_SITE_CLIENT_ID}`,
        `  Token key    ${tokenKey.source}`,
        '  Connect the demo site, with TOKEN set to the owner session token, either by its site token (shown once):',
        `    curl -X POST ${apiUrl}/api/site-platform/site-token ${auth} -d '{"token":"${siteToken}"}'`,
        '  or by OAuth with the demo client (quick connect):',
        `    1. curl -X POST ${apiUrl}/api/site-platform/connect ${auth} -d '{"intent":"site_account_connect"}'`,
        '    2. Open the authorize_url it answers in a browser: the simulator approves at once and redirects to',
        `       ${callbackUrl(publicAppUrl)}, which stores the connection.`,
        '  Then run an operation with the agent key as AGENT_KEY:',
        `    curl "${apiUrl}/api/agent/web/site-platform-ops?action=cms_collection_list&site_id=${site.id}" -H "Authorization: Bearer $AGENT_KEY"`,
      ];
    },
    stop: () => simulator.stop(),
  };
}
