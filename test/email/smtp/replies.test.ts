import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';
import { ApiError } from '../../../src/http/errors';
import { SMTP_REPLY_CODES, smtpRefusal, type SmtpStage } from '../../../src/email/smtp/replies';
import { isAsciiReply, openDialogue, plainAuth } from './dialogue';
import { SMTP_USER, startSmtpWorld, type SmtpWorld } from './kit';

const SMTP_SOURCE = path.join(__dirname, '../../../src/email/smtp');
const STAGES: SmtpStage[] = ['auth', 'mail', 'rcpt', 'data'];
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Every string and template literal part of a TypeScript file, as written in the source. */
function literalsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('SMTP submission: replies are ASCII', () => {
  it('every SMTP reply text we define is ASCII', () => {
    // The text of each refusal: whatever a message carries (an echoed address, a typographic character of a REST
    // message), the reply that leaves is printable US-ASCII.
    const message = 'caf\u00e9 \u201cquoted\u201d \u2014 svc_test_\u2026 or \u65e5\u672c\nsecond line';
    for (const code of [...SMTP_REPLY_CODES, 'internal', 'some_other_code']) {
      for (const stage of STAGES) {
        const text = smtpRefusal(new ApiError(400, code, message, { retryAfterSeconds: 3 }), stage).message;
        assert.match(text, PRINTABLE_ASCII, `${code} at ${stage}: ${text}`);
      }
    }
    assert.equal(
      smtpRefusal(new ApiError(401, 'invalid_api_key', 'svc_test_\u2026 \u2014 caf\u00e9'), 'auth').message,
      '5.7.8 invalid_api_key: svc_test_... - cafe',
    );
    // The texts written in the SMTP code itself (an escape such as \u2014 in the ASCII table of replies.ts is ASCII).
    const files = readdirSync(SMTP_SOURCE).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 0);
    for (const file of files) {
      for (const literal of literalsOf(path.join(SMTP_SOURCE, file))) {
        assert.match(literal, /^[\x09\x0a\x0d\x20-\x7e]*$/, `a non-ASCII text in src/email/smtp/${file}: ${literal}`);
      }
    }
  });

  describe('in a dialogue', () => {
    let world: SmtpWorld;
    before(async () => {
      world = await startSmtpWorld();
    });
    after(async () => {
      await world.close();
    });

    it('a refused AUTH names the key formats in ASCII (svc_test_... or svc_live_...)', async () => {
      const dialogue = await openDialogue(world.submission.starttlsPort!);
      try {
        await dialogue.reply();
        await dialogue.command('EHLO client.test');
        await dialogue.startTls();
        await dialogue.command('EHLO client.test');
        const refused = await dialogue.command(plainAuth(SMTP_USER, 'svc_test_not-a-key'));
        assert.equal(refused.code, 535, refused.lines.join(' | '));
        assert.ok(isAsciiReply(refused.raw), `non-ASCII bytes in: ${refused.raw.toString('utf8')}`);
        assert.match(refused.lines[0], /svc_test_\.\.\. or svc_live_\.\.\./);
      } finally {
        dialogue.close();
      }
    });
  });
});
