import type { Server as TcpServer, Socket } from 'node:net';
import DNS from 'dns2';
import { startDnsControl } from './control';
import { publishRecords, type PublishedRecord } from './publish';
import { DnsZone, RCODE, type MxValue, type TxtValue } from './zone';

export type { PublishedRecord } from './publish';
export type { MxValue, TxtValue } from './zone';

/** How the server misbehaves on demand: answer SERVFAIL or REFUSED, or drop the query (the client times out). */
export type DnsFault = 'servfail' | 'refused' | 'drop';

export interface DnsSandbox {
  host: string;
  port: number;
  /** `127.0.0.1:<port>`, the form EMAIL_DNS_SERVERS takes. */
  address: string;
  /** With `control: true`: the HTTP console that publishes records (`PUT {controlUrl}/records/{name}`, control.ts). */
  controlUrl?: string;
  /** Replaces the TXT records of `name` (case and a trailing dot ignored). */
  setTxt(name: string, values: TxtValue[]): void;
  removeTxt(name: string): void;
  /** Replaces the MX records of `name`. */
  setMx(name: string, values: MxValue[]): void;
  removeMx(name: string): void;
  /** Makes `name` a CNAME of `target`. */
  setCname(name: string, target: string): void;
  /** Publishes records as the domains API lists them: each name and type given gets exactly the values given. */
  publish(records: PublishedRecord[]): void;
  clear(): void;
  /** The queries received, in order (name as asked, numeric type); the last 1000. */
  queries: Array<{ name: string; type: number }>;
  /** The next `times` queries (every query when absent) meet `fault`; `heal()` ends it. */
  fail(fault: DnsFault, times?: number): void;
  heal(): void;
  /** Milliseconds every answer waits (timeouts on demand). */
  delayMs: number;
  stop(): Promise<void>;
}

const BIND_ATTEMPTS = 10;
const MAX_LOGGED_QUERIES = 1000;

/**
 * An authoritative DNS server on loopback (dns2) for TXT, MX and CNAME records: UDP and TCP on the same port, as resolvers
 * expect (they retry a truncated UDP answer over TCP). Names it does not hold answer NXDOMAIN.
 */
export async function startDnsSandbox(options: { host?: string; control?: boolean } = {}): Promise<DnsSandbox> {
  const host = options.host ?? '127.0.0.1';
  const zone = new DnsZone();
  let fault: DnsFault | null = null;
  let faultsLeft = 0;
  const timers = new Set<NodeJS.Timeout>();

  const takeFault = (): DnsFault | null => {
    if (!fault || faultsLeft <= 0) return null;
    const current = fault;
    if (--faultsLeft <= 0) fault = null;
    return current;
  };

  const handle: DNS.DnsHandler = (request, send) => {
    const [question] = request.questions;
    if (question) {
      if (sandbox.queries.length >= MAX_LOGGED_QUERIES) sandbox.queries.shift();
      sandbox.queries.push({ name: question.name, type: question.type });
    }
    const current = takeFault();
    if (current === 'drop') return;
    const response = DNS.Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    if (current) {
      response.header.rcode = current === 'servfail' ? RCODE.SERVFAIL : RCODE.REFUSED;
    } else if (question) {
      const answer = zone.answer(question.name, question.type);
      response.header.rcode = answer.rcode;
      const base = { name: question.name, class: DNS.Packet.CLASS.IN, ttl: 60 };
      for (const data of answer.txt) response.answers.push({ ...base, type: DNS.Packet.TYPE.TXT, data } as DNS.Packet.Resource);
      for (const mx of answer.mx) response.answers.push({ ...base, type: DNS.Packet.TYPE.MX, ...mx } as DNS.Packet.Resource);
      for (const domain of answer.cname) response.answers.push({ ...base, type: DNS.Packet.TYPE.CNAME, domain } as DNS.Packet.Resource);
    }
    const reply = () => {
      send(response).catch(() => undefined);
    };
    if (sandbox.delayMs <= 0) return reply();
    const timer = setTimeout(() => {
      timers.delete(timer);
      reply();
    }, sandbox.delayMs);
    timers.add(timer);
  };

  const { udp, tcp } = await bindBoth(host, handle);
  const port = udp.address().port;
  // Resolvers keep TCP connections open between queries; stop() must not wait for them.
  const sockets = new Set<Socket>();
  tcp.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const control = options.control ? await startDnsControl(zone) : undefined;

  const sandbox: DnsSandbox = {
    host,
    port,
    address: `${host}:${port}`,
    controlUrl: control?.origin,
    setTxt: (name, values) => zone.set(name, values),
    removeTxt: (name) => zone.removeTxt(name),
    setMx: (name, values) => zone.setMx(name, values),
    removeMx: (name) => zone.removeMx(name),
    setCname: (name, target) => zone.setCname(name, target),
    publish: (records) => publishRecords(zone, records),
    clear: () => zone.clear(),
    queries: [],
    fail: (kind, times = Number.POSITIVE_INFINITY) => {
      fault = kind;
      faultsLeft = times;
    },
    heal: () => {
      fault = null;
      faultsLeft = 0;
    },
    delayMs: 0,
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
        control?.stop(),
      ]);
    },
  };
  return sandbox;
}

/** UDP on a free port, then TCP on the same number; another process may hold that TCP port, so try again. */
async function bindBoth(host: string, handle: DNS.DnsHandler): Promise<{ udp: DNS.UDPServer; tcp: TcpServer }> {
  for (let attempt = 1; ; attempt++) {
    const udp = DNS.createUDPServer(handle);
    await udp.listen(0, host);
    const tcp = DNS.createTCPServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(udp.address().port, host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, tcp };
    } catch (err) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= BIND_ATTEMPTS) throw err;
    }
  }
}
