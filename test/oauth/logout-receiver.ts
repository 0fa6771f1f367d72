/** A client's back-channel logout endpoint over real HTTP: records every logout_token it is sent; answers `status`. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LogoutReceiver {
  url: string;
  tokens: string[];
  answer(status: number): void;
  close(): Promise<void>;
}

/** `status`: what it answers until told otherwise (a failing receiver parks its logouts). */
export async function startLogoutReceiver(options: { status?: number } = {}): Promise<LogoutReceiver> {
  const tokens: string[] = [];
  let status = options.status ?? 200;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (c: Buffer) => (body += c.toString()));
    request.on('end', () => {
      tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`,
    tokens,
    answer: (s) => (status = s),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
