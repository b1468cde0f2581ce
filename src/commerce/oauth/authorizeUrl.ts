import { shopBaseUrl } from '../../clients/commerce';
import { REQUESTED_SCOPES } from './scopes';

export const CALLBACK_PATH = '/api/oauth/commerce/callback';

export const callbackUrl = (publicAppUrl: string) => `${publicAppUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;

/**
 * `<shop>/admin/oauth/authorize?client_id&scope&redirect_uri&state`: the spec's scopes comma-separated, and no
 * `grant_options[]=per-user`, so the platform issues an offline token.
 */
export function authorizeUrl(input: {
  shopUrlTemplate: string;
  shopDomain: string;
  clientId: string;
  publicAppUrl: string;
  state: string;
}): string {
  // Commas stay literal (a legal query character) so the scope list reads as the platform documents it.
  const query = [
    ['client_id', encodeURIComponent(input.clientId)],
    ['scope', REQUESTED_SCOPES.join(',')],
    ['redirect_uri', encodeURIComponent(callbackUrl(input.publicAppUrl))],
    ['state', encodeURIComponent(input.state)],
  ]
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${shopBaseUrl(input.shopUrlTemplate, input.shopDomain)}/admin/oauth/authorize?${query}`;
}
