import type { TokenBucket } from './tokenBucket';

/** `v2` → `<apiUrl>/v2`, `beta` → `<apiUrl>/beta`, `root` → `<apiUrl>` (for /token/* and /oauth/*); chosen per request. */
export type ApiBase = 'v2' | 'beta' | 'root';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SitePlatformClientOptions {
  /** The platform's API URL (SITE_PLATFORM_API_URL), without `/v2`. */
  apiUrl: string;
  /** The connection's access token, decrypted in memory; sent only in the Authorization header. */
  token: string;
  /** SITE_PLATFORM_TIMEOUT_MS: no answer inside this → 504 platform_timeout, never retried. */
  timeoutMs: number;
  /** The connection's bucket; pass the same one to every client of one connection. Default: a new bucket. */
  bucket?: TokenBucket;
  /** Longest `Retry-After` the one GET retry waits for; a longer one is answered 429 at once. Default 60 s. */
  maxRetryWaitMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface SitePlatformRequest {
  method: HttpMethod;
  /** Path under the base, starting with `/`, e.g. `/sites/{id}/collections`. */
  path: string;
  base: ApiBase;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

export interface SitePlatformResponse<T> {
  status: number;
  body: T;
  /** Lower-case header names. */
  headers: Record<string, string>;
}

export interface TokenIntrospection {
  /** Granted scopes, split from the platform's comma-separated `scope`. */
  scopes: string[];
  /** The plan's limit (60 or 120) as introspection reports it; null when absent. */
  rateLimitPerMinute: number | null;
  authorizedTo: { siteIds: string[]; workspaceIds: string[]; userIds: string[] };
  /** `authorization_code` for OAuth grants; site tokens report something else. */
  grantType?: string;
  /** Present for OAuth applications; site tokens carry none. */
  application?: { id: string; displayName: string | null };
}

export interface AuthorizedUser {
  id: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

export interface SiteLocale {
  id: string;
  cmsLocaleId: string | null;
  tag: string | null;
  displayName: string | null;
  enabled: boolean;
}

export interface Site {
  id: string;
  workspaceId: string | null;
  displayName: string;
  shortName: string | null;
  timeZone: string | null;
  lastPublished: string | null;
  customDomains: Array<{ id: string; url: string }>;
  locales: { primary: SiteLocale | null; secondary: SiteLocale[] };
}

export interface SitePlatformClient {
  /** One call: local bucket → send → one GET retry on a remote 429 → coded ApiError for every failure. */
  request<T = unknown>(req: SitePlatformRequest): Promise<SitePlatformResponse<T>>;
  /** GET /token/introspect. */
  introspect(): Promise<TokenIntrospection>;
  /** GET /token/authorized_by (OAuth grants with authorized_user:read). */
  authorizedBy(): Promise<AuthorizedUser>;
  /** GET /v2/sites: the sites the token is authorized to. */
  listSites(): Promise<Site[]>;
}

export interface ExchangeCodeOptions {
  /** SITE_PLATFORM_API_URL: the exchange is `POST <apiUrl>/oauth/access_token`. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri?: string;
  timeoutMs: number;
}

export interface RevokeOptions {
  /** SITE_PLATFORM_AUTH_URL: the revoke is `POST <authUrl>/oauth/revoke_authorization`. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  timeoutMs: number;
}
