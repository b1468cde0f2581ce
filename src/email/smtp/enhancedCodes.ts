import type { SMTPServer } from 'smtp-server';

const ENHANCED_CODE = /^[245]\.\d{1,3}\.\d{1,3} /;

/**
 * ENHANCEDSTATUSCODES (RFC 2034): smtp-server, once told to advertise it, starts each reply with the enhanced code
 * it derives from the basic one (550 → 5.1.1). Our own replies already start with a more telling one (550 5.7.1
 * domain_not_verified): a reply text that starts with an enhanced code is sent as it is, every other reply gets
 * smtp-server's. Wraps each connection's `send` as the server opens it.
 */
export function keepOwnEnhancedCodes(server: SMTPServer): void {
  const connect = server.connect.bind(server);
  server.connect = (socket, options) => {
    const before = new Set(server.connections);
    connect(socket, options);
    for (const connection of server.connections) {
      if (before.has(connection)) continue;
      const send = connection.send.bind(connection);
      connection.send = (code, data, context) => send(code, data, typeof data === 'string' && ENHANCED_CODE.test(data) ? false : context);
    }
  };
}
