import { inspect } from 'node:util';

/**
 * An active DKIM key, unsealed, ready to sign mail from `domain`. The private key never appears in JSON (logs) or
 * `util.inspect` output: both show only where its public half lives.
 */
export class DkimSigningKey {
  constructor(
    /** The signing domain (`d=`): the From domain, lowercase. */
    readonly domain: string,
    /** `s=`: the record is `<selector>._domainkey.<domain>`. */
    readonly selector: string,
    /** PKCS#8 PEM. */
    readonly privateKeyPem: string,
  ) {}

  toJSON(): { domain: string; selector: string } {
    return { domain: this.domain, selector: this.selector };
  }

  [inspect.custom](): string {
    return `DkimSigningKey(${this.selector}._domainkey.${this.domain})`;
  }
}
