/** The simulator's in-memory world: apps, tokens, sites with locales and domains, pages, collections and items. */
import { randomBytes } from 'node:crypto';

export type Plan = 60 | 120;

export interface SimApp {
  clientId: string;
  clientSecret: string;
  /** When set, authorize and exchange require this exact redirect_uri. */
  redirectUri?: string;
  /** Sites an authorization grants; default every site. */
  siteIds?: string[];
}

export interface SimUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface SimToken {
  token: string;
  kind: 'oauth' | 'site_token';
  clientId?: string;
  scopes: string[];
  /** Requests per minute: the plan's 60 or 120, an Enterprise site's custom figure, or a benchmark's lifted one. */
  rateLimit: number;
  siteIds: string[];
  workspaceIds: string[];
  /** The authorizing user; site tokens have none. */
  userId?: string;
  createdOn: string;
  revoked: boolean;
  /** A site token issued with `webhooksAllowed`: may register webhooks (unsigned deliveries), which the platform refuses by default. */
  webhooksAllowed?: boolean;
}

export interface AuthCode {
  clientId: string;
  redirectUri?: string;
  scopes: string[];
  used: boolean;
  expiresAt: number;
}

export interface SimLocale {
  id: string;
  cmsLocaleId: string;
  enabled: boolean;
  displayName: string;
  redirect?: boolean;
  subdirectory: string;
  tag: string;
}

export interface SimDomain {
  id: string;
  url: string;
  lastPublished: string | null;
}

export interface SimSite {
  id: string;
  workspaceId: string;
  displayName: string;
  shortName: string;
  timeZone: string;
  plan: Plan;
  /** An Enterprise site's custom requests per minute, agreed with the platform; the plan's figure when absent. */
  rateLimitPerMinute?: number;
  createdOn: string;
  lastUpdated: string;
  lastPublished: string | null;
  /** Time of the last successful publish, for the once-a-minute rule. */
  lastPublishAt?: number;
  customDomains: SimDomain[];
  locales: { primary: SimLocale; secondary: SimLocale[] };
}

export interface PageMeta {
  title: string;
  slug: string;
  seo: { title: string; description: string };
  openGraph: { title: string; titleCopied: boolean; description: string; descriptionCopied: boolean };
}

export interface SimPage {
  id: string;
  siteId: string;
  parentId: string | null;
  collectionId: string | null;
  createdOn: string;
  lastUpdated: string;
  archived: boolean;
  draft: boolean;
  /** Metadata per locale id; the primary locale is always present. */
  meta: Map<string, PageMeta>;
}

export interface SimField {
  id: string;
  isEditable: boolean;
  isRequired: boolean;
  type: string;
  slug: string;
  displayName: string;
  helpText: string | null;
}

export interface SimCollection {
  id: string;
  siteId: string;
  displayName: string;
  singularName: string;
  slug: string;
  createdOn: string;
  lastUpdated: string;
  fields: SimField[];
  items: SimItem[];
}

export interface SimItem {
  id: string;
  cmsLocaleId: string;
  createdOn: string;
  lastUpdated: string;
  lastPublished: string | null;
  isArchived: boolean;
  isDraft: boolean;
  fieldData: Record<string, unknown> & { name: string; slug: string };
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: string;
  status: number;
  at: number;
}

/**
 * A change a webhook trigger fires on, queued while a request is handled and handed to the deliverer once the
 * answer is written (or at once after a seeding helper).
 */
export interface PendingEvent {
  siteId: string;
  triggerType: string;
  payload: Record<string, unknown>;
  /** form_submission only: the form's name, matched against a webhook's `filter.name`. */
  formName?: string;
}

export interface SimState {
  now: () => number;
  apps: Map<string, SimApp>;
  user: SimUser;
  tokens: Map<string, SimToken>;
  codes: Map<string, AuthCode>;
  sites: Map<string, SimSite>;
  pages: Map<string, SimPage>;
  collections: Map<string, SimCollection>;
  log: RequestLogEntry[];
  /** Webhook events raised by the request (or seeding call) in progress, not yet handed to the deliverer. */
  events: PendingEvent[];
}

export function createState(now: () => number): SimState {
  return {
    now,
    apps: new Map(),
    user: { id: newId(), email: 'owner@example.test', firstName: 'Sam', lastName: 'Owner' },
    tokens: new Map(),
    codes: new Map(),
    sites: new Map(),
    pages: new Map(),
    collections: new Map(),
    log: [],
    events: [],
  };
}

/** A 24-hex id like the platform's object ids. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'item'
  );
}

export function siteLocaleIds(site: SimSite): string[] {
  return [site.locales.primary.id, ...site.locales.secondary.map((l) => l.id)];
}

/** A token's requests per minute: the highest of its sites' (60 when it reaches none). */
export function tokenRateLimit(sites: readonly SimSite[]): number {
  return Math.max(60, ...sites.map((s) => s.rateLimitPerMinute ?? s.plan));
}
