import { z } from 'zod';
import type { SitePlatformDeps } from '../connections/deps';
import { codeOf, registerConnectionWebhooks, type SiteRegistrationReport } from './registration';

/** What a connect answer says about webhook registration (a best-effort follow-up that never fails the connect). */
export interface ConnectWebhooks {
  /** Per shared site: created, adopted, deleted and failed registrations. */
  registered: SiteRegistrationReport[];
  /** site_token_refused: the platform does not register webhooks for a site token; registration_error: the run itself failed. */
  skipped?: 'site_token_refused' | 'registration_error';
  /** With site_token_refused only: the receiver URL to enter in the platform's dashboard. Shown this once; it carries the URL token. */
  receiver_url?: string;
  /** With registration_error only: the error code. */
  code?: string;
}

export const siteRegistrationSchema = z
  .object({
    site_id: z.string(),
    created: z.number().int(),
    adopted: z.number().int(),
    deleted: z
      .number()
      .int()
      .describe(
        "This connection's stale registrations deleted once the wanted ones existed, plus orphans: registrations of this service's receiver whose connection is gone (disconnected or no longer existing).",
      ),
    failed: z.array(z.object({ trigger_type: z.string(), code: z.string() })),
  })
  .meta({ id: 'SitePlatformWebhookRegistration' });

export const connectWebhooksSchema = z
  .object({
    registered: z.array(siteRegistrationSchema),
    skipped: z.enum(['site_token_refused', 'registration_error']).optional(),
    receiver_url: z.string().optional(),
    code: z.string().optional(),
  })
  .meta({
    id: 'SitePlatformConnectWebhooks',
    description:
      'Webhook registration on every shared site (11 triggers each). `skipped: site_token_refused` means the platform does not register webhooks for a site token: add them by hand (an inbox item lists the steps) at `receiver_url`, which is shown only in this answer.',
  });

/** Connect follow-up: registers the connection's webhooks; logs codes (never a token or URL) and never throws. */
export async function registerAfterConnect(deps: SitePlatformDeps, accountId: string, connectionId: string): Promise<ConnectWebhooks> {
  try {
    const report = await registerConnectionWebhooks(deps, accountId, connectionId);
    const out: ConnectWebhooks = { registered: report.sites };
    if (report.skipped) {
      out.skipped = report.skipped;
      out.receiver_url = report.receiver_url;
    }
    return out;
  } catch (err) {
    const code = codeOf(err);
    deps.logger.warn({ accountId, connectionId, code }, 'site platform webhook registration failed after connect');
    return { registered: [], skipped: 'registration_error', code };
  }
}
