import DNS from 'dns2';

/** A DNS server on loopback (dns2, UDP) that holds CNAME records only; any other question has no answer. */
export interface CnameServer {
  /** `127.0.0.1:<port>`, the form EMAIL_DNS_SERVERS takes. */
  address: string;
  /** Makes `name` a CNAME of `target`; null removes it. */
  set(name: string, target: string | null): void;
  stop(): Promise<void>;
}

const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

export async function startCnameServer(): Promise<CnameServer> {
  const records = new Map<string, string>();
  const server = DNS.createUDPServer((request, send) => {
    const response = DNS.Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const target = question && question.type === DNS.Packet.TYPE.CNAME ? records.get(key(question.name)) : undefined;
    if (target) {
      response.answers.push({
        name: question.name,
        type: DNS.Packet.TYPE.CNAME,
        class: DNS.Packet.CLASS.IN,
        ttl: 60,
        domain: target,
      } as DNS.Packet.Resource);
    }
    send(response).catch(() => undefined);
  });
  await server.listen(0, '127.0.0.1');
  return {
    address: `127.0.0.1:${server.address().port}`,
    set: (name, target) => (target ? records.set(key(name), target) : records.delete(key(name))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
