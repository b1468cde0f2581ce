import assert from 'node:assert/strict';
import type { ReceivedMessage } from '../../../src/sandbox/smtp';
import { harness } from '../../helpers/harness';
import { emailKey, senderAccount, type SendWorld } from '../send/kit';

/** The public URL the send world's tracked links are made on (a reachable https one, as in production). */
export const PUBLIC_URL = 'https://api.workyard.test';

const OPEN = /^https:\/\/([^/]+)(\/v1\/email\/t\/o\/([A-Za-z0-9_-]+)\.gif)$/;
const CLICK = /^https:\/\/([^/]+)(\/v1\/email\/t\/c\/([A-Za-z0-9_-]+))$/;

export interface TrackedUrl {
  host: string;
  path: string;
  token: string;
}

const parts = (match: RegExpExecArray): TrackedUrl => ({ host: match[1], path: match[2], token: match[3] });

/** An account with a verified sender domain, a live key that sends and manages domains, and the domain's id. */
export async function trackingAccount(world: SendWorld, settings: Record<string, unknown> = {}) {
  const account = await senderAccount();
  const { token } = await emailKey(account.accountId, { scopes: ['email:send', 'email:batch', 'email:domains'] });
  const list = await world.app.call('GET', '/v1/email/domains', { token });
  assert.equal(list.status, 200, list.text);
  const domainId = list.body.data[0].id as string;
  if (Object.keys(settings).length > 0) {
    const res = await world.app.call('PATCH', `/v1/email/domains/${domainId}`, { token, body: settings });
    assert.equal(res.status, 200, res.text);
  }
  return { account, token, domainId };
}

/** The `src` of every `<img>` in the html. */
export const imageSources = (html: string) => [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/gi)].map((m) => decode(m[1]));

/** The `href` of every `<a>` in the html, as a browser reads it. */
export const anchorHrefs = (html: string) =>
  [...html.matchAll(/<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => decode(m[1] ?? m[2] ?? m[3]));

const decode = (value: string) => value.replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** The one tracking pixel of a received copy. */
export function pixelOf(copy: ReceivedMessage): TrackedUrl {
  const pixels = imageSources(copy.parsed.html ?? '')
    .map((src) => OPEN.exec(src))
    .filter((m): m is RegExpExecArray => m !== null);
  assert.equal(pixels.length, 1, `one pixel in ${copy.parsed.html}`);
  return parts(pixels[0]);
}

/** A tracked link's parts, or null for a link left as written. */
export function trackedLink(href: string): TrackedUrl | null {
  const match = CLICK.exec(href);
  return match ? parts(match) : null;
}

/** The copy the relay received for one recipient (tracked copies are one transaction each). */
export function copyFor(messages: ReceivedMessage[], recipient: string): ReceivedMessage {
  const copy = messages.find((m) => m.envelope.to.includes(recipient));
  assert.ok(copy, `a copy for ${recipient}`);
  assert.deepEqual(copy.envelope.to, [recipient], 'the copy goes to that recipient alone');
  return copy;
}

/** A GET as a mail client or browser makes it, not following redirects, with the body as bytes. */
export async function hit(world: SendWorld, path: string, init: { method?: string; userAgent?: string } = {}) {
  const res = await fetch(`${world.app.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: init.userAgent ? { 'user-agent': init.userAgent } : {},
  });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

export async function trackingEvents(accountId: string, type: 'email.opened' | 'email.clicked') {
  return harness().db('email_events').where({ account_id: accountId, type }).orderBy('created_at');
}
