// The ceiling: the fastest a fastify route can answer on this machine, with no work at all.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.post('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address}`);
