import { Readable } from 'node:stream';

/**
 * The message stream as the SMTP connection reads it, with the last word on whether it may go. nodemailer starts
 * reading the message only once the relay has answered DATA with 354, so the first read is the moment the
 * envelope is accepted and the relay waits for the message; the end of the source is the moment before the final
 * `<CRLF>.<CRLF>` — the commit point: until the relay has that line it has nothing to deliver. `refusal` runs at
 * both; when it answers an error the stream fails with it, the connection is dropped mid-DATA and the relay
 * discards the partial message.
 */
export function commitGate(source: Readable, refusal: () => Error | null): Readable {
  let started = false;
  const gate = new Readable({
    read() {
      if (started) {
        source.resume();
        return;
      }
      started = true;
      const refused = refusal();
      if (refused) {
        gate.destroy(refused);
        return;
      }
      source.on('data', (chunk: Buffer) => {
        if (!gate.push(chunk)) source.pause();
      });
      source.once('end', () => {
        const late = refusal();
        if (late) gate.destroy(late);
        else gate.push(null);
      });
      source.once('error', (err) => gate.destroy(err));
      source.resume();
    },
    destroy(err, callback) {
      if (!source.destroyed) source.destroy();
      callback(err);
    },
  });
  return gate;
}
