import { createHash } from 'node:crypto';
import os from 'node:os';
import type { Config } from '../config';

/** One provider as a worker has it: whether it is configured, and the non-secret choices that change what it does. */
export interface ProviderSetting {
  configured: boolean;
  /** Endpoint origins, model names, schemes: never a key, a password or anything computed from one. */
  choices: Record<string, string>;
}

export type ProviderSettings = Record<string, ProviderSetting>;

export interface WorkerFingerprint {
  /** 12 hex characters of the SHA-256 of the settings' canonical JSON. */
  fingerprint: string;
  providers: ProviderSettings;
}

/** Scheme, host and port only: a URL's user info, path and query may carry credentials. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function setting(configured: boolean, choices: Record<string, string | undefined> = {}): ProviderSetting {
  const kept = Object.entries(choices).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { configured, choices: Object.fromEntries(kept) };
}

/**
 * The providers a worker's activities call, as this configuration has them. Secrets (API keys, tokens, encryption
 * keys, the relay URL with its password) count only as set or unset.
 */
export function providerSettings(config: Config): ProviderSettings {
  return {
    model: setting(Boolean(config.MODEL_API_KEY), { endpoint: originOf(config.MODEL_API_URL), model: config.MODEL_CHAT_MODEL }),
    images: setting(Boolean(config.IMAGE_API_KEY), { endpoint: originOf(config.IMAGE_API_URL), model: config.IMAGE_MODEL }),
    search: setting(Boolean(config.SEARCH_API_KEY), { endpoint: originOf(config.SEARCH_API_URL) }),
    analytics: setting(Boolean(config.ANALYTICS_API_KEY), { endpoint: originOf(config.ANALYTICS_API_URL) }),
    smtp_relay: setting(Boolean(config.SMTP_URL), { scheme: config.SMTP_URL && new URL(config.SMTP_URL).protocol.slice(0, -1) }),
    email_return_path: setting(Boolean(config.EMAIL_RETURN_PATH_DOMAIN), { domain: config.EMAIL_RETURN_PATH_DOMAIN }),
    dns: setting(Boolean(config.EMAIL_DNS_SERVERS), { servers: config.EMAIL_DNS_SERVERS }),
    public_app_url: setting(Boolean(config.PUBLIC_APP_URL), { origin: originOf(config.PUBLIC_APP_URL) }),
    commerce: setting(Boolean(config.COMMERCE_TOKEN_ENCRYPTION_KEY), {
      previous_key: config.COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS ? 'set' : 'unset',
      shop_url: config.COMMERCE_SHOP_URL_TEMPLATE,
    }),
    commerce_partner: setting(Boolean(config.COMMERCE_PARTNER_API_TOKEN && config.COMMERCE_PARTNER_ORG_ID)),
    site_platform: setting(Boolean(config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY), {
      previous_key: config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS ? 'set' : 'unset',
      oauth_client: config.SITE_PLATFORM_CLIENT_ID && config.SITE_PLATFORM_CLIENT_SECRET ? 'set' : 'unset',
      endpoint: originOf(config.SITE_PLATFORM_API_URL),
    }),
  };
}

/** JSON with object keys sorted at every level, so equal settings always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function fingerprintOf(providers: ProviderSettings): string {
  return createHash('sha256').update(canonicalJson(providers)).digest('hex').slice(0, 12);
}

export function workerFingerprint(config: Config): WorkerFingerprint {
  const providers = providerSettings(config);
  return { fingerprint: fingerprintOf(providers), providers };
}

const IDENTITY_MARK = /(?:^|\s)workyard\/([0-9a-f]{12})$/;

/** The worker's Temporal identity: the SDK's default (`pid@host`) and its fingerprint, which pollers then show. */
export function workerIdentity(fingerprint: string): string {
  return `${process.pid}@${os.hostname()} workyard/${fingerprint}`;
}

/** The fingerprint a poller's identity carries; null for a worker that advertises none. */
export function fingerprintOfIdentity(identity: string): string | null {
  return IDENTITY_MARK.exec(identity)?.[1] ?? null;
}

/** `model: set (https://api.openai.com, gpt-4o-mini)`, one per provider. */
export function describeProviders(providers: ProviderSettings): string[] {
  return Object.entries(providers).map(([name, p]) => {
    const choices = Object.values(p.choices);
    return `${name}: ${p.configured ? 'set' : 'unset'}${choices.length ? ` (${choices.join(', ')})` : ''}`;
  });
}

/** The providers whose settings differ between two workers. */
export function differingProviders(a: ProviderSettings, b: ProviderSettings): string[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return names.filter((name) => canonicalJson(a[name] ?? null) !== canonicalJson(b[name] ?? null));
}
