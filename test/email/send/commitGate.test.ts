import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { commitGate } from '../../../src/email/send/commitGate';

async function drain(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

describe('the commit gate of a message stream', () => {
  it('passes the message through when the key stays active', async () => {
    const gate = commitGate(Readable.from(['part one, ', 'part two']), () => null);
    assert.equal(await drain(gate), 'part one, part two');
  });

  it('asks nothing until the relay reads the message (after DATA is accepted)', async () => {
    let asked = 0;
    const gate = commitGate(Readable.from(['x']), () => {
      asked++;
      return null;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(asked, 0);
    await drain(gate);
    assert.equal(asked, 2, 'once when reading starts, once before the end');
  });

  it('fails before the first byte when the key is already revoked', async () => {
    const source = Readable.from(['secret body']);
    const gate = commitGate(source, () => new Error('revoked'));
    await assert.rejects(drain(gate), /revoked/);
    assert.ok(source.destroyed);
  });

  it('fails instead of ending when the key is revoked while the message streams (no final dot)', async () => {
    const source = new PassThrough();
    let revoked = false;
    const gate = commitGate(source, () => (revoked ? new Error('revoked') : null));
    const received: string[] = [];
    gate.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    const outcome = new Promise<'ended' | Error>((resolve) => {
      gate.once('end', () => resolve('ended'));
      gate.once('error', resolve);
    });
    source.write('first half, ');
    await new Promise((resolve) => setTimeout(resolve, 10));
    revoked = true;
    source.end('second half');
    const result = await outcome;
    assert.ok(result instanceof Error && /revoked/.test(result.message), `expected a failure, got ${String(result)}`);
    assert.ok(received.join('').startsWith('first half, '), 'what came before the revocation went through');
  });
});
