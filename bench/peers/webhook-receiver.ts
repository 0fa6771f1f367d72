// A webhook receiver that answers 204 at once and notes when each event first arrived.
// GET /stats → {count}; GET /arrivals → {eventId: epochMs}; POST /reset clears both.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let count = 0;
let arrivals = new Map<string, number>();
const server = http.createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/reset') {
    count = 0;
    arrivals = new Map();
    return response.writeHead(204).end();
  }
  if (request.method === 'GET') {
    const body = request.url === '/arrivals' ? Object.fromEntries(arrivals) : { count };
    return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
  const now = Date.now();
  request.resume();
  request.on('end', () => {
    count++;
    const id = request.headers['event-id'];
    if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, now);
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`));
