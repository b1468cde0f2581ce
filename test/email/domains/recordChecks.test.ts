import assert from 'node:assert/strict';
import { checkDkimRecord, checkDmarc, checkReturnPathMx, checkReturnPathSpf, dmarcNames } from '../../../src/email/domains/recordChecks';

const ok = { verified: true };
const failed = (reason: string) => ({ verified: false, reason });

describe('DNS record checks', () => {
  it('DKIM: our key under any tag order and spacing; another key type, a revoked key or another key differ', () => {
    assert.deepEqual(checkDkimRecord(['v=DKIM1; k=rsa; p=AB CD'], 'ABCD'), ok);
    assert.deepEqual(checkDkimRecord(['p=ABCD;k=rsa'], 'ABCD'), ok, 'v= and k= are optional');
    assert.deepEqual(checkDkimRecord(['v=DKIM1; k=ed25519; p=ABCD'], 'ABCD'), failed('value differs'));
    assert.deepEqual(checkDkimRecord(['v=DKIM1; k=rsa; p='], 'ABCD'), failed('value differs'));
    assert.deepEqual(checkDkimRecord(['v=DKIM1; k=rsa; p=EFGH'], 'ABCD'), failed('value differs'));
    assert.deepEqual(checkDkimRecord([], 'ABCD'), failed('record not found'));
  });

  it('return-path MX: every MX must name the return-path domain (case and a trailing dot ignored)', () => {
    assert.deepEqual(checkReturnPathMx([{ exchange: 'Returns.Example.', priority: 10 }], 'returns.example'), ok);
    assert.deepEqual(
      checkReturnPathMx(
        [
          { exchange: 'returns.example', priority: 10 },
          { exchange: 'mx.other', priority: 20 },
        ],
        'returns.example',
      ),
      failed('value differs'),
    );
    assert.deepEqual(checkReturnPathMx([], 'returns.example'), failed('record not found'));
  });

  it('return-path SPF: exactly one SPF record, including the return-path domain', () => {
    assert.deepEqual(checkReturnPathSpf(['V=SPF1 +include:returns.example ~all', 'other'], 'returns.example'), ok);
    assert.deepEqual(checkReturnPathSpf(['v=spf1 -include:returns.example ~all'], 'returns.example'), failed('value differs'));
    assert.deepEqual(checkReturnPathSpf(['v=spf1 include:returns.example.evil ~all'], 'returns.example'), failed('value differs'));
    assert.deepEqual(checkReturnPathSpf(['v=spf10 include:returns.example'], 'returns.example'), failed('record not found'));
    assert.deepEqual(
      checkReturnPathSpf(['v=spf1 include:returns.example ~all', 'v=spf1 -all'], 'returns.example'),
      failed('more than one SPF record'),
    );
  });

  it('DMARC: looked for at the domain and each parent down to two labels; any v=DMARC1 record counts', () => {
    assert.deepEqual(dmarcNames('a.mail.example.com'), ['_dmarc.a.mail.example.com', '_dmarc.mail.example.com', '_dmarc.example.com']);
    assert.deepEqual(dmarcNames('example.com'), ['_dmarc.example.com']);
    assert.deepEqual(checkDmarc([[], ['v=DMARC1; p=reject']]), ok);
    assert.deepEqual(checkDmarc([['v=DMARC2; p=none'], []]), failed('record not found'));
  });
});
