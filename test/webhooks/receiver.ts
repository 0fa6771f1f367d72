/**
 * A real webhook receiver on 127.0.0.1 for tests. It keeps every request's headers and exact
 * body bytes, verifies each with the stock verifiers (@octokit/webhooks-methods on
 * `Signature`, standardwebhooks on the `webhook-*` headers) against those raw bytes, and
 * answers as the test tells it: a status, a redirect, never (timeout) or a reset connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';

export type Answer =
  | number
  | 'timeout'
  | 'reset'
  /** `after`: answer only once it has settled (the test does something while the attempt is in flight). */
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number; after?: Promise<unknown> };

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: { event: string; object: string; id: string; state: string; created_at: string; data?: Record<string, unknown> };
  octokitValid: boolean;
  standardValid: boolean;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer; 204 unless set. */
  answer: (request: Received) => Answer;
  /** Secrets to verify with (the receiver's view of the endpoint's secret). */
  secrets: string[];
  /** Times a request arrived while another attempt at the same event was still being answered. */
  overlaps: number;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const hanging = new Set<http.ServerResponse>();
  const answering = new Map<string, number>();
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 204,
    secrets: [],
    overlaps: 0,
    waitFor(n, timeoutMs = 10_000) {
      if (receiver.received.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiters.push({ n, resolve });
        setTimeout(() => reject(new Error(`receiver got ${receiver.received.length} of ${n} requests`)), timeoutMs).unref();
      });
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        let octokitValid = false;
        let standardValid = false;
        for (const secret of receiver.secrets) {
          octokitValid ||= await verify(secret, text, String(request.headers.signature ?? ''));
          try {
            new Webhook(secret).verify(text, {
              'webhook-id': String(request.headers['webhook-id']),
              'webhook-timestamp': String(request.headers['webhook-timestamp']),
              'webhook-signature': String(request.headers['webhook-signature']),
            });
            standardValid = true;
          } catch {
            /* stays false */
          }
        }
        // Not a delivery: a request of another test process that had this port before it was freed
        // (a key fetch, a probe). Refused and not counted, rather than thrown inside the server.
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          response.writeHead(400).end();
          return;
        }
        const entry: Received = { headers: request.headers, raw, body: body as Received['body'], octokitValid, standardValid, at: Date.now() };
        receiver.received.push(entry);
        for (const w of waiters.filter((w) => receiver.received.length >= w.n)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
        const eventId = String(request.headers['event-id']);
        const active = (answering.get(eventId) ?? 0) + 1;
        if (active > 1) receiver.overlaps++;
        answering.set(eventId, active);
        response.once('close', () => answering.set(eventId, (answering.get(eventId) ?? 1) - 1));
        const answer = receiver.answer(entry);
        if (answer === 'timeout') {
          hanging.add(response);
          return;
        }
        if (answer === 'reset') {
          request.socket.destroy();
          return;
        }
        const spec = typeof answer === 'number' ? { status: answer } : answer;
        if (spec.delayMs) await new Promise((r) => setTimeout(r, spec.delayMs));
        if (spec.after) await spec.after.catch(() => undefined);
        response.writeHead(spec.status, spec.headers ?? {});
        response.end(spec.body ?? '');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
