/**
 * HTTP/1.1 over a plain TCP socket, for what fetch cannot do: send a request slowly or in
 * pieces, hold a connection open without a request, pipeline a second request, and see
 * exactly what the server wrote before it closed the connection.
 */
import net from 'node:net';

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server has written so far. */
  received(): string;
  /** Resolves when the server (or the network) closed the connection: what it wrote, and when. */
  closed: Promise<{ afterMs: number; text: string }>;
  write(text: string): void;
  /** Writes `text` one character every `everyMs` until it is all sent or the connection closes. */
  trickle(text: string, everyMs: number): void;
  end(): void;
}

export async function openRaw(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const socket = net.connect({ host: url.hostname, port: Number(url.port) });
  const started = performance.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<{ afterMs: number; text: string }>((resolve) => {
    socket.on('close', () => resolve({ afterMs: performance.now() - started, text }));
  });
  // A reset by the server is one way of closing; the test reads it from `closed`.
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let timer: NodeJS.Timeout | undefined;
  void closed.then(() => clearInterval(timer));
  return {
    socket,
    received: () => text,
    closed,
    write: (chunk) => {
      if (!socket.destroyed) socket.write(chunk);
    },
    trickle(chunk, everyMs) {
      let sent = 0;
      timer = setInterval(() => {
        if (sent >= chunk.length || socket.destroyed) return clearInterval(timer);
        socket.write(chunk[sent++]!);
      }, everyMs);
    },
    end: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** `closed`, or undefined when the connection is still open after `ms` (the test then fails). */
export function closedWithin(connection: RawConnection, ms: number): Promise<{ afterMs: number; text: string } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  return Promise.race([connection.closed, open]).finally(() => clearTimeout(timer));
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The responses in `text`, in order (bodies framed by Content-Length, as this server sends them). */
export function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = Buffer.from(rest.slice(headEnd + 4));
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: bodyBytes.subarray(0, length).toString() });
    rest = bodyBytes.subarray(length).toString();
  }
  return out;
}
