/**
 * The pages a person sees at an unsubscribe link. Opening the link only shows a button: mail scanners and link
 * previews follow links, so only the POST the button sends unsubscribes. The pages carry nothing from the token.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The token is in the URL: no page this one links or posts to learns it.
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex',
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.5rem 1.25rem}';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>
<body><h1>${title}</h1>${body}</body></html>
`;
}

/** The link opened: a button posting the one-click form back to the same URL. */
export const confirmPage = () =>
  page(
    'Unsubscribe',
    '<p>Stop receiving emails from this sender at this address?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>',
  );

export const donePage = () => page('You are unsubscribed', '<p>You will no longer receive emails from this sender at this address.</p>');

export const notFoundPage = () => page('Link not valid', '<p>This unsubscribe link is not valid.</p>');
