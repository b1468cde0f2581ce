import { isIP } from 'node:net';

/**
 * EMAIL_DNS_SERVERS (`ip` or `ip:port`, IPv6 as `[ip]:port`, comma-separated) in the form `Resolver.setServers`
 * takes. Undefined when unset: the system's resolvers. A malformed entry throws, naming it.
 */
export function parseDnsServers(value: string | undefined): string[] | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  return entries.map((entry) => {
    if (!validServer(entry)) throw new Error(`EMAIL_DNS_SERVERS: "${entry}" is not an ip, ip:port or [ipv6]:port`);
    return entry;
  });
}

function validServer(entry: string): boolean {
  if (isIP(entry)) return true;
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]) === 6 && validPort(bracketed[2]);
  const v4 = /^([^:]+):(\d{1,5})$/.exec(entry);
  return !!v4 && isIP(v4[1]) === 4 && validPort(v4[2]);
}

const validPort = (port: string) => Number(port) >= 1 && Number(port) <= 65535;
