/** A TCP proxy a test can cut and restore, to simulate a database that goes away and comes back. */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones. */
  cut(): Promise<void>;
  /**
   * Open connections stop carrying anything, both ways, without closing (a network cut, a
   * frozen failover): what is sent on them is never answered. New connections work.
   */
  silence(): void;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let port = 0;
  let server: net.Server;
  let listening = false;
  const listen = () =>
    new Promise<void>((resolve) => {
      if (listening) return resolve();
      listening = true;
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        const pair: [net.Socket, net.Socket] = [client, upstream];
        pairs.add(pair);
        client.on('close', () => pairs.delete(pair));
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const cut = async () => {
    if (!listening) return;
    listening = false;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  };
  return {
    get port() {
      return port;
    },
    cut,
    silence() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      pairs.clear();
    },
    restore: listen,
    close: cut,
  };
}
