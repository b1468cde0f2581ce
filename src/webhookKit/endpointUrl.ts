import { MAX_OUTBOUND_URL_LENGTH, outboundUrlProblem } from '../clients/providers/outboundPost';

export const MAX_URL_LENGTH = MAX_OUTBOUND_URL_LENGTH;

/**
 * Why `raw` may not receive webhooks, or null when it may: the outbound URL rule, with http for a loopback host and
 * private hosts only when FETCH_ALLOW_PRIVATE_HOSTS lets the service reach them (tests and the sandbox).
 */
export function webhookUrlProblem(raw: string, allowPrivateHosts: boolean): string | null {
  return outboundUrlProblem(raw, { allowPrivateHosts, allowHttpLoopback: allowPrivateHosts });
}
