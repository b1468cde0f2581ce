import MailComposer from 'nodemailer/lib/mail-composer';
import { dkimKeysFor, signMessage } from '../../src/email/dkim';
import { benchEmailAccount } from '../lib/emailAccount';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';

const ROUNDS = 3;
const ROUND_MS = 3_000;
const PARAGRAPH = 'Your order has shipped and is on its way. Track it any time from your account page. ';

/** A typical transactional message of about 5 KB (text and HTML, list headers), composed as the relay path composes it. */
function compose(domain: string, i: number): Promise<Buffer> {
  return new MailComposer({
    from: `Acme Support <support@${domain}>`,
    to: 'Jane Doe <jane@customer.test>',
    subject: `Your order #${i} has shipped`,
    text: PARAGRAPH.repeat(25),
    html: `<p>${PARAGRAPH.repeat(25)}</p>`,
    headers: {
      'List-Unsubscribe': `<https://${domain}/unsubscribe/${i}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  })
    .compile()
    .build();
}

/** One side's round: messages one after another (the work is CPU on the event loop), with the process CPU it took. */
async function round(operation: (i: number) => Promise<void>): Promise<{ samples: Samples; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const samples = await sampleLoad(operation, { concurrency: 1, durationMs: ROUND_MS, warmupOperations: 20 });
  const used = process.cpuUsage(cpu);
  return { samples, cpuUs: used.user + used.system };
}

/**
 * DKIM signing as a live send does it: the active key from the per-process cache (`dkimKeysFor`), then `signMessage`
 * (RSA-2048, rsa-sha256, relaxed/relaxed) of a freshly composed ~5 KB message, vs the same compose without signing.
 * Alternating rounds in this process.
 */
export async function emailDkim(env: BenchEnv): Promise<ScenarioResult> {
  const { accountId, domain, deps } = await benchEmailAccount(env, 'Bench DKIM', 'bench-dkim');
  let size = 0;
  const signed = async (i: number) => {
    const raw = await compose(domain, i);
    const message = await signMessage(raw, await dkimKeysFor(deps, accountId, domain));
    size = raw.length;
    if (message.length <= raw.length) throw new Error('not signed');
  };
  const unsigned = async (i: number) => {
    await compose(domain, i);
  };

  const ours: Samples[] = [];
  const baseline: Samples[] = [];
  let oursCpu = 0;
  let baselineCpu = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const b = await round(unsigned);
    baseline.push(b.samples);
    baselineCpu += b.cpuUs;
    const o = await round(signed);
    ours.push(o.samples);
    oursCpu += o.cpuUs;
  }
  const count = (side: Samples[]) => side.reduce((t, s) => t + s.latenciesMs.length, 0);
  const oursPer = oursCpu / count(ours);
  const baselinePer = baselineCpu / count(baseline);
  return {
    name: `email-dkim, compose + DKIM-sign a ${(size / 1024).toFixed(1)} KB message (RSA-2048, relaxed/relaxed), one at a time in process (${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s)`,
    ours: pool(ours),
    baseline: pool(baseline),
    baselineLabel: 'the same compose without signing',
    notes: [
      `CPU µs per message: signed ${oursPer.toFixed(0)}, unsigned ${baselinePer.toFixed(0)}, signing alone ${(oursPer - baselinePer).toFixed(0)} (ratio ${(oursPer / baselinePer).toFixed(2)})`,
    ],
  };
}
