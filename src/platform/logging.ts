/**
 * Structured JSON logs (pino). Credentials never reach a log line: authorization headers,
 * cookies and any field named like a secret are redacted wherever they appear.
 */
import { pino, destination, stdTimeFunctions, type DestinationStream } from 'pino';
import type { FastifyBaseLogger } from 'fastify';

export type LogDestination = DestinationStream;

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.client_secret',
  '*.secret',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.code',
  '*.code_verifier',
  '*.client_assertion',
];

export function createLogger(options: { level: string; destination?: LogDestination | undefined }): FastifyBaseLogger {
  return pino(
    {
      level: options.level,
      base: { service: 'gatehouse' },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? destination({ fd: 1, sync: false }),
  ) as unknown as FastifyBaseLogger;
}
