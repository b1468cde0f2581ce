/** Where in an SMTP transaction the sandbox can refuse: the sender, each recipient, or the message after its data. */
export type SmtpStage = 'mail' | 'rcpt' | 'data';

export interface SmtpRefusal {
  /** SMTP reply code, e.g. 550 (permanent) or 451 (temporary). */
  code: number;
  message: string;
  /** Refuse only this recipient (stage `rcpt`); every recipient when absent. */
  recipient?: string;
}

interface Armed extends SmtpRefusal {
  remaining: number;
}

/** Refusals armed per stage, each for a number of uses; `take` hands out the next that applies. */
export class RefusalQueue {
  private readonly armed = new Map<SmtpStage, Armed[]>();

  arm(stage: SmtpStage, refusal: SmtpRefusal, times: number): void {
    const list = this.armed.get(stage) ?? [];
    list.push({ ...refusal, remaining: Math.max(1, Math.floor(times)) });
    this.armed.set(stage, list);
  }

  take(stage: SmtpStage, recipient?: string): SmtpRefusal | undefined {
    const list = this.armed.get(stage) ?? [];
    const index = list.findIndex((r) => r.recipient === undefined || r.recipient.toLowerCase() === recipient?.toLowerCase());
    if (index === -1) return undefined;
    const found = list[index];
    if (--found.remaining <= 0) list.splice(index, 1);
    return { code: found.code, message: found.message, ...(found.recipient ? { recipient: found.recipient } : {}) };
  }

  clear(): void {
    this.armed.clear();
  }
}

/** An smtp-server handler error carrying the reply code the client gets. */
export function smtpError(refusal: SmtpRefusal): Error & { responseCode: number } {
  return Object.assign(new Error(refusal.message), { responseCode: refusal.code });
}
