/**
 * The ceiling: the fastest a fastify route can answer on this machine, with no work at all. It is
 * built on the fastify Gatehouse runs on (imported from the project's own node_modules, never a
 * copy of its own) and reads bodies the way Gatehouse does: JSON with fastify's own parser, forms
 * with @fastify/formbody, so that each scenario's ceiling takes the same kind of request as the
 * route measured (GET, JSON POST, form POST). It prints the release it runs, so a report names it.
 */
import Fastify from 'fastify';
import formbody from '@fastify/formbody';

const app = Fastify({ logger: false });
await app.register(formbody, { bodyLimit: 64 * 1024 });
app.get('/', async () => ({ hello: 'world' }));
app.post('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address} fastify ${app.version}`);
