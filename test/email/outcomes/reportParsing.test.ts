import assert from 'node:assert/strict';
import { parseReport } from '../../../src/email/returnPath/report';

const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

const multipartReport = (type: string, parts: string[]) =>
  Buffer.from(
    [
      'From: MAILER-DAEMON@mx.example.test',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report;\r\n\treport-type="${type}";\r\n\tboundary="=_b"`,
      '',
      'preamble',
      ...parts.map((p) => `--=_b\r\n${p}`),
      '--=_b--',
      '',
    ].join('\r\n'),
  );

describe('reading delivery status notifications and feedback reports', () => {
  it('a DSN: per-message envelope id and MTA, each recipient with action, status and folded diagnostic; base64 undone', () => {
    const status = [
      'Reporting-MTA: dns; mx.example.test',
      `Original-Envelope-Id: ${ID}`,
      '',
      'Original-Recipient: rfc822;Jane@Customer.test',
      'Final-Recipient: rfc822; Jane <Jane@Customer.test>',
      'Action: failed',
      'Status: 5.1.1 (user unknown)',
      'Diagnostic-Code: smtp; 550 5.1.1',
      '  no such user',
      '',
      'Final-Recipient: rfc822; bob@customer.test',
      'Action: Delayed',
      'Status: 4.4.7',
      '',
    ].join('\r\n');
    const report = parseReport(
      multipartReport('delivery-status', [
        'Content-Type: text/plain\r\n\r\nSorry.\r\n',
        `Content-Type: message/delivery-status\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(status).toString('base64')}\r\n`,
        `Content-Type: text/rfc822-headers\r\n\r\nMessage-ID: <${ID}@mail.example.test>\r\nSubject: Hi\r\n`,
      ]),
    );
    assert.ok(report && report.kind === 'dsn');
    assert.equal(report.envelopeId, ID);
    assert.equal(report.reportingMta, 'dns; mx.example.test');
    assert.equal(report.originalMessageId, `<${ID}@mail.example.test>`);
    assert.deepEqual(report.recipients, [
      {
        recipient: 'jane@customer.test',
        originalRecipient: 'jane@customer.test',
        action: 'failed',
        status: '5.1.1',
        diagnostic: 'smtp; 550 5.1.1 no such user',
        remoteMta: null,
      },
      { recipient: 'bob@customer.test', originalRecipient: null, action: 'delayed', status: '4.4.7', diagnostic: null, remoteMta: null },
    ]);
  });

  it('an ARF report: the feedback type, Original-Rcpt-To (else the original To), Original-Mail-From (else Return-Path); not a report is null', () => {
    const arf = (feedback: string, original: string) =>
      parseReport(
        multipartReport('feedback-report', [
          'Content-Type: text/plain\r\n\r\nA complaint.\r\n',
          `Content-Type: message/feedback-report\r\n\r\n${feedback}\r\n`,
          `Content-Type: message/rfc822\r\n\r\n${original}\r\n\r\nbody\r\n`,
        ]),
      );
    const named = arf(
      'Feedback-Type: abuse\r\nVersion: 1\r\nOriginal-Mail-From: <B+X@Returns.test>\r\nOriginal-Rcpt-To: <A@x.test>\r\nOriginal-Rcpt-To: b@x.test',
      'Return-Path: <other@returns.test>\r\nTo: c@x.test',
    );
    assert.ok(named && named.kind === 'arf');
    assert.equal(named.feedbackType, 'abuse');
    assert.deepEqual(named.recipients, ['a@x.test', 'b@x.test']);
    assert.equal(named.originalMailFrom, 'b+x@returns.test');
    const fromTo = arf(
      'Feedback-Type: fraud\r\nVersion: 1',
      `Return-Path: <b+y@returns.test>\r\nMessage-ID: <${ID}@mail.example.test>\r\nTo: Carol <c@x.test>, d@x.test`,
    );
    assert.ok(fromTo && fromTo.kind === 'arf');
    assert.deepEqual(fromTo.recipients, ['c@x.test', 'd@x.test']);
    assert.equal(fromTo.originalMailFrom, 'b+y@returns.test');
    assert.equal(fromTo.originalMessageId, `<${ID}@mail.example.test>`);
    assert.equal(parseReport(Buffer.from('Subject: hello\r\n\r\nnot a report\r\n')), null);
    assert.equal(parseReport(multipartReport('disposition-notification', ['Content-Type: text/plain\r\n\r\nread\r\n'])), null);
  });
});
