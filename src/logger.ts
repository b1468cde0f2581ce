import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths that can carry credentials: pino replaces their values before a line is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-agent-secret"]',
  'req.headers["x-commerce-hmac-sha256"]',
  'headers.authorization',
  'headers["x-agent-secret"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.agent_key',
  '*.owner_token',
  '*.client_secret',
  '*.access_token',
  '*.rawBody',
  'password',
  'secret',
  'token',
  'rawBody',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'workyard' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
