import { createServer, type AddressInfo } from 'node:net';
import type { Config } from '../../config';

/** The return-path domain the sandbox uses when none is configured (`.test`: never resolves). */
export const SANDBOX_RETURN_PATH_DOMAIN = 'returns.sandbox.workyard.test';

/**
 * `start --sandbox`: the return path on (its domain and a free loopback port unless configured), so the relay's
 * simulated DSNs and feedback reports reach the service and every live send gets an outcome.
 */
export async function sandboxReturnPath(config: Config): Promise<Pick<Config, 'EMAIL_RETURN_PATH_DOMAIN' | 'EMAIL_RETURN_PATH_PORT'>> {
  return {
    EMAIL_RETURN_PATH_DOMAIN: config.EMAIL_RETURN_PATH_DOMAIN ?? SANDBOX_RETURN_PATH_DOMAIN,
    EMAIL_RETURN_PATH_PORT: config.EMAIL_RETURN_PATH_PORT || (await freePort(config.EMAIL_RETURN_PATH_HOST)),
  };
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
