import type { ConnectOutcome } from './service';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The small page a merchant's browser lands on after approving the app. */
export function callbackPage({ connection, webhooks }: ConnectOutcome): string {
  const shop = escape(connection.shop_name ?? connection.shop_domain);
  const warning = webhooks.failed.length
    ? `<p>${webhooks.failed.length} webhook topic(s) could not be registered yet; retry from the dashboard.</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop connected</title></head>
<body><h1>${shop} is connected</h1><p>You can close this window.</p>${warning}</body></html>
`;
}
