import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** One SMTP reply as it came off the wire: its code, its lines without the `NNN-` / `NNN ` prefix, and its raw bytes. */
export interface WireReply {
  code: number;
  lines: string[];
  raw: Buffer;
}

/** A raw SMTP conversation over a socket: a client that does nothing the test does not write. */
export interface Dialogue {
  /** The next complete reply (a multi-line reply ends with its `NNN ` line). */
  reply(): Promise<WireReply>;
  /** Writes one command line and reads its reply. */
  command(line: string): Promise<WireReply>;
  /** STARTTLS, then the TLS handshake (the test's self-signed certificate is accepted); the 220 reply. */
  startTls(): Promise<WireReply>;
  close(): void;
}

/** Opens a connection to `port` on loopback; the banner is the first `reply()`. */
export async function openDialogue(port: number): Promise<Dialogue> {
  let socket: Socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let pending = Buffer.alloc(0);
  const ready: WireReply[] = [];
  const waiting: Array<(reply: WireReply) => void> = [];
  const onData = (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (let reply = takeReply(); reply; reply = takeReply()) {
      const waiter = waiting.shift();
      if (waiter) waiter(reply);
      else ready.push(reply);
    }
  };
  const takeReply = (): WireReply | null => {
    let start = 0;
    for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n', start)) {
      const line = pending.subarray(start, end).toString('latin1');
      start = end + 2;
      if (/^\d{3} /.test(line) || /^\d{3}$/.test(line)) {
        const raw = pending.subarray(0, start);
        pending = pending.subarray(start);
        const lines = raw.toString('utf8').split('\r\n').filter(Boolean);
        return { code: Number(line.slice(0, 3)), lines: lines.map((l) => l.slice(4)), raw };
      }
    }
    return null;
  };
  socket.on('data', onData);
  socket.on('error', () => undefined);

  const reply = () => {
    const next = ready.shift();
    return next ? Promise.resolve(next) : new Promise<WireReply>((resolve) => waiting.push(resolve));
  };
  const command = (line: string) => {
    socket.write(`${line}\r\n`);
    return reply();
  };
  return {
    reply,
    command,
    async startTls() {
      const answer = await command('STARTTLS');
      if (answer.code !== 220) return answer;
      socket.off('data', onData);
      const secured = tlsConnect({ socket, rejectUnauthorized: false });
      await new Promise<void>((resolve, reject) => secured.once('secureConnect', resolve).once('error', reject));
      secured.on('data', onData);
      secured.on('error', () => undefined);
      socket = secured;
      return answer;
    },
    close: () => socket.destroy(),
  };
}

/** The `AUTH PLAIN` initial response for a user and password (RFC 4616: empty authzid). */
export const plainAuth = (user: string, password: string) => `AUTH PLAIN ${Buffer.from(`\0${user}\0${password}`).toString('base64')}`;

/** Whether every byte is printable US-ASCII or CR/LF: what an SMTP reply may carry (RFC 5321 4.2). */
export const isAsciiReply = (raw: Buffer) => raw.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x0d || b === 0x0a);
