import type { AppDeps } from '../../deps';
import { startReturnPathServer, type ReturnPathServer } from './server';

/**
 * The return path of the configuration, beside the API: on when EMAIL_RETURN_PATH_DOMAIN is set and
 * EMAIL_RETURN_PATH_PORT is not 0. A port it cannot bind is logged, not fatal (sends still work, without outcomes).
 */
export async function startConfiguredReturnPath(deps: AppDeps): Promise<ReturnPathServer | null> {
  const { EMAIL_RETURN_PATH_DOMAIN: domain, EMAIL_RETURN_PATH_HOST: host, EMAIL_RETURN_PATH_PORT: port } = deps.config;
  if (!domain || !port) return null;
  try {
    const server = await startReturnPathServer(deps, { host, port, domain });
    deps.logger.info({ host, port: server.port, domain }, 'email return path listening');
    return server;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    deps.logger.warn(
      { host, port, code: e.code, reason: e.message },
      'email return path not started (set EMAIL_RETURN_PATH_PORT to a free port, or 0)',
    );
    return null;
  }
}
