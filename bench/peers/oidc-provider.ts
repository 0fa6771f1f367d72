// The reference: panva/node-oidc-provider (the release in node_modules) issuing client-credentials tokens with its
// defaults (in-memory adapter, opaque access tokens, client_secret_basic).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

const clientId = process.env.BENCH_CLIENT_ID ?? 'bench-client';
const clientSecret = process.env.BENCH_CLIENT_SECRET ?? 'bench-client-secret-0123456789abcdef';

const server = http.createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'invoices:read',
    },
  ],
  scopes: ['invoices:read'],
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
});
server.on('request', provider.callback());
console.log(`listening http://127.0.0.1:${port}`);
