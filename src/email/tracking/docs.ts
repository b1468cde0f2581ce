// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const openPixelDescription =
  "The `<img>` open tracking adds to each recipient's copy of an html message (sender domain with `open_tracking`). " +
  'Always answers the 43-byte transparent GIF with `Cache-Control: no-store`. The first load for a recipient emits ' +
  '`email.opened`; later loads only count (`GET /v1/email/emails/{id}/engagement`). A token this service did not make, ' +
  'or whose email is gone, records nothing and gets the same GIF, so the pixel never shows as broken. HEAD counts nothing. ' +
  'Mail privacy proxies and scanners load images without anyone reading the message: an open is a signal, not a proof.';

export const clickDescription =
  "A tracked link of one recipient's copy (sender domain with `click_tracking`). Answers 302 to the URL the message linked " +
  "to — the one stored for the message under the link's index, which the token's MAC binds, so it never redirects anywhere " +
  'else — with `Referrer-Policy: no-referrer`. The first click of each link by a recipient emits `email.clicked` with ' +
  '`link`; later clicks only count. HEAD redirects without counting. Link scanners follow links too: see docs/email.md.';

export const engagementDescription =
  'How often each recipient opened the email (pixel loads) and followed each tracked link: first and last time and ' +
  'count. The first of each is the `email.opened` / `email.clicked` event. Empty for emails sent without tracking.';
