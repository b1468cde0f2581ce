import { z } from 'zod';
import { parseTrustProxy } from './http/trustProxy';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const port = z.coerce.number().int().min(0).max(65535);

/** A 32-byte key given as base64 (e.g. `openssl rand -base64 32`). */
const base64Key = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32 && /^[A-Za-z0-9+/=_-]+$/.test(v), 'must be 32 bytes, base64-encoded');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: port.default(3000),
    /** The worker command's own `/metrics` (on HOST); 0 turns it off. The all-in-one start serves metrics on the API's `/metrics`. */
    METRICS_PORT: port.default(9464),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().default('.data'),
    DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    TEMPORAL_ADDRESS: optionalString,
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    /**
     * TLS, API key and profile of the Temporal connection, named as Temporal's own tools name them. Listed here to be
     * checked and passed on; src/temporal/connectionConfig.ts reads them (with @temporalio/envconfig), the address
     * and namespace too, so that a profile can supply them.
     */
    TEMPORAL_API_KEY: optionalString,
    TEMPORAL_TLS: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    TEMPORAL_TLS_CLIENT_CERT_PATH: optionalString,
    TEMPORAL_TLS_CLIENT_CERT_DATA: optionalString,
    TEMPORAL_TLS_CLIENT_KEY_PATH: optionalString,
    TEMPORAL_TLS_CLIENT_KEY_DATA: optionalString,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: optionalString,
    TEMPORAL_TLS_SERVER_CA_CERT_DATA: optionalString,
    TEMPORAL_TLS_SERVER_NAME: optionalString,
    TEMPORAL_PROFILE: optionalString,
    TEMPORAL_CONFIG_FILE: optionalString,
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('workyard'),
    TEMPORAL_UI_URL: optionalString.pipe(z.url().optional()),
    TEMPORAL_CLI_PATH: optionalString,
    WORKFLOW_BUNDLE_PATH: optionalString,
    SECRET_HASH_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    AGENT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    CRON_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** How often a job event stream (`GET /api/jobs/{id}/events`) looks at its job while it runs. */
    JOB_EVENTS_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    /** Peers whose X-Forwarded-For names the client (IP allowlists, logs): off, a hop count, or proxy addresses/CIDRs. */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const parsed = parseTrustProxy(raw);
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: 'custom', message: parsed.message });
        return z.NEVER;
      }),
    PUBLIC_APP_URL: optionalString.pipe(z.url().optional()),
    COMMERCE_TOKEN_ENCRYPTION_KEY: optionalString.pipe(base64Key.optional()),
    COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS: optionalString.pipe(base64Key.optional()),
    COMMERCE_PARTNER_API_TOKEN: optionalString,
    COMMERCE_PARTNER_ORG_ID: optionalString.pipe(z.string().regex(/^\d+$/, 'must be a numeric organization id').optional()),
    /** When set (e.g. `myshopify.com`), connect refuses shop domains outside it: the code exchange sends the app secret to the shop. */
    COMMERCE_SHOP_DOMAIN_SUFFIX: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9.-]+$/, 'must be a lowercase domain suffix, e.g. myshopify.com')
        .optional(),
    ),
    /** Where a shop's Admin API lives; `{shop}` is the shop domain. Tests and the sandbox point it at the simulator. */
    COMMERCE_SHOP_URL_TEMPLATE: z
      .string()
      .default('https://{shop}')
      .refine((v) => v.includes('{shop}'), 'must contain {shop}'),
    /** Web search (Brave Search API protocol): GET <url>?q=&count= with `X-Subscription-Token`. Unset key: research runs without web results. */
    SEARCH_API_URL: z.url().default('https://api.search.brave.com/res/v1/web/search'),
    SEARCH_API_KEY: optionalString,
    /** Search calls per account per calendar month (UTC); past it a run's `serp` is null and the run goes on. */
    SEARCH_MONTHLY_CAP: z.coerce.number().int().min(0).default(1000),
    /** An OpenAI-compatible chat-completions provider: POST <url>/chat/completions. Unset key: the fallback extractor. */
    MODEL_API_URL: z.url().default('https://api.openai.com/v1'),
    MODEL_API_KEY: optionalString,
    MODEL_CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
    /** An OpenAI-compatible Images API: POST <url>/images/generations (and /images/edits with reference images). Unset key: no image runs. */
    IMAGE_API_URL: z.url().default('https://api.openai.com/v1'),
    IMAGE_API_KEY: optionalString,
    IMAGE_MODEL: z.string().min(1).default('gpt-image-1'),
    /** One image request's deadline (headers and the whole answer); renders take tens of seconds. */
    IMAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
    /** Section images an image run renders at once after its hero. */
    IMAGE_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(10).default(5),
    /** How long `POST …/images` waits for the run before answering 202 with the job (the spec's runtime is 300 s). */
    IMAGE_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(300),
    /** Web analytics (Plausible Stats API v2): POST <url>/api/v2/query with a Bearer key. Unset key: no collector figures. */
    ANALYTICS_API_URL: z.url().default('https://plausible.io'),
    ANALYTICS_API_KEY: optionalString,
    /** One stats query's deadline (headers and the whole answer). */
    ANALYTICS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** The collector goal counted as a form submit (Plausible's form-submissions tracking names its goal `Form: Submission`). */
    ANALYTICS_FORM_GOAL: z.string().trim().min(1).max(120).default('Form: Submission'),
    /** The nightly analytics job measures an item's search rank at most once in this many days (each is one web-search call of the monthly cap). */
    ANALYTICS_RANK_EVERY_DAYS: z.coerce.number().int().min(1).max(30).default(7),
    /** Department AI chats: how long a start call waits for its turn before answering 202 (doc1: about 110 s). */
    AI_TURN_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(110),
    /** The longest a turn may run, confirmation waits included (doc1: 1,200 s). */
    AI_TURN_MAX_SECONDS: z.coerce.number().int().min(10).max(3600).default(1200),
    /** A running turn whose workflow made no progress for this long (or whose workflow is gone) polls as `stale: true`. */
    AI_TURN_STALE_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
    /** Model calls a turn makes at most (each may ask for tools); past it the turn fails with `too_many_steps`. */
    AI_TURN_MAX_STEPS: z.coerce.number().int().min(1).max(50).default(16),
    /** Earlier turns of the session sent to the model in full; older ones are counted, not sent. */
    AI_HISTORY_TURNS: z.coerce.number().int().min(0).max(50).default(10),
    /** Page fetches of a research run: per-request timeout, largest body read, pages fetched at once. */
    FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    FETCH_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(5 * 1024 * 1024),
    RESEARCH_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(8),
    /** Lets page fetches reach loopback and private addresses (tests and the sandbox); off in production against SSRF. */
    FETCH_ALLOW_PRIVATE_HOSTS: z.stringbool().default(false),
    /** Where the site-links crawl reads a project's site; `{host}` is the project's host. Tests point it at a loopback server. */
    SITE_CRAWL_ORIGIN_TEMPLATE: z
      .string()
      .default('https://{host}')
      .refine((v) => v.includes('{host}') && /^https?:\/\//.test(v), 'must be an http(s) origin containing {host}'),
    /** How long `POST …/research` waits for the run before answering 202 with the job (the spec's bound: 300 s). */
    RESEARCH_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(300),
    /** How long `POST …/content/case-study` waits for the draft before answering 202 (the spec's runtime is three minutes). */
    CASE_STUDY_WAIT_SECONDS: z.coerce.number().min(0).max(180).default(180),
    /** The relay live email keys send through: smtp://user:pass@host:587 or smtps://…:465. Unset: live sends answer 503. */
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    /** DNS servers for sender-domain verification (TXT and MX lookups), `ip` or `ip:port`, comma-separated; unset: the system's. */
    EMAIL_DNS_SERVERS: optionalString,
    /** API replicas sharing email keys' per-second limits: each admits ⌊limit ÷ replicas⌋ (at least 1) per key. */
    EMAIL_RATE_REPLICAS: z.coerce.number().int().min(1).max(1000).default(1),
    /** The wait after a live message's first failed delivery attempt (a relay 4xx or outage); each later wait doubles. */
    EMAIL_RETRY_INITIAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    /** The longest wait between two delivery attempts of a message. */
    EMAIL_RETRY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1_800),
    /** How long a message is retried after it was accepted before its waiting recipients fail (`delivery_expired`): 72 h. */
    EMAIL_DELIVERY_MAX_AGE_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .default(259_200),
    /** One webhook delivery attempt's deadline. */
    EMAIL_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** One attempt's deadline for account webhooks and job callbacks (src/alerts), like EMAIL_WEBHOOK_TIMEOUT_MS. */
    ALERT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /**
     * Delivery outcomes (src/email/returnPath): live sends use a tagged return path per recipient
     * (`b+<email id>.<tag>.<check>@<domain>`, src/email/returnPath/verp.ts) as the envelope sender and ask the relay
     * for DSNs; reports sent there are read by the return-path server. Unset: no VERP, no DSNs.
     */
    EMAIL_RETURN_PATH_DOMAIN: optionalString,
    /** The return-path SMTP server's address and port (25 in production behind the domain's MX); port 0 turns it off. */
    EMAIL_RETURN_PATH_HOST: z.string().min(1).default('127.0.0.1'),
    EMAIL_RETURN_PATH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    /** SMTP submission (src/email/smtp): the address both ports bind to; 0.0.0.0 or :: to serve other machines. */
    SMTP_SUBMISSION_HOST: z.string().min(1).default('127.0.0.1'),
    /** Submission with STARTTLS (AUTH only after it); 0 turns this port off. */
    SMTP_SUBMISSION_PORT: z.coerce.number().int().min(0).max(65535).default(587),
    /** Submission over implicit TLS (SMTPS); 0 turns this port off. */
    SMTP_SUBMISSION_TLS_PORT: z.coerce.number().int().min(0).max(65535).default(465),
    /** The certificate and its key: a PEM file path or the PEM itself. Unset: a self-signed pair generated once into DATA_DIR. */
    SMTP_SUBMISSION_TLS_CERT: optionalString,
    SMTP_SUBMISSION_TLS_KEY: optionalString,
    /** Largest message accepted (advertised with SIZE; beyond it 552 5.3.4). */
    SMTP_SUBMISSION_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(10 * 1024 * 1024),
    /** The fixed AUTH user name; the password is the email API key. */
    SMTP_SUBMISSION_USER: z.string().min(1).max(64).default('workyard'),
    /** Local development only: AUTH without TLS from a loopback peer (other peers still need STARTTLS or port 465). */
    SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK: z.stringbool().default(false),
    /** The site platform (doc2): its data API ({site_platform_api_url}: /v2, /beta, /token, /oauth/access_token) and auth host. */
    SITE_PLATFORM_API_URL: z.url().default('https://api.webflow.com'),
    SITE_PLATFORM_AUTH_URL: z.url().default('https://webflow.com'),
    /** The service-wide OAuth client; quick connect is offered only when both are set. */
    SITE_PLATFORM_CLIENT_ID: optionalString,
    SITE_PLATFORM_CLIENT_SECRET: optionalString,
    /** Seals platform tokens (v1:iv:ct:tag); connect routes refuse up front without it. `_PREVIOUS` during a rotation. */
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: optionalString.pipe(base64Key.optional()),
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: optionalString.pipe(base64Key.optional()),
    /** One platform request's deadline: past it 504 platform_timeout, never retried. */
    SITE_PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
    /** How long `POST …/forms/backfill` waits for its job before answering 202 with it. */
    SITE_PLATFORM_FORMS_BACKFILL_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(30),
    /** Retry of a scheduled publish at its time (doubling from _INITIAL_MS up to _MAX_MS, _ATTEMPTS in all); then it is marked failed. */
    CONTENT_PUBLISH_RETRY_INITIAL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    CONTENT_PUBLISH_RETRY_MAX_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
    CONTENT_PUBLISH_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
    /** One proof-pack source's read deadline (`SET LOCAL statement_timeout`): past it that source is ok:false, the others answer. */
    PROOF_PACK_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SECRET_HASH_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SECRET_HASH_KEY'], message: 'is required in production' });
    }
  });

export type Config = z.infer<typeof schema>;

/** Every variable the configuration reads (docker-compose.yml passes each of them to the app services). */
export const CONFIG_KEYS = Object.keys(schema.shape) as readonly (keyof Config)[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; every problem names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return parsed.data;
}
