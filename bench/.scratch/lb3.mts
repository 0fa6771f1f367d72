import { createLogger, requestLineWriter } from '/work/wt-logs/src/platform/logging.ts';
import { destination } from '/work/wt-logs/node_modules/pino/pino.js';
const dest = destination({ dest: '/dev/null', sync: false, minLength: 4096 });
const log = createLogger({ level: 'info', destination: dest });
const write = requestLineWriter(log.child({ listener: 'public' }))!;
const req = { id: 'c0a8f5e2-3b1d-4c5e-9f7a-123456789abc', method: 'POST' } as never;
function time(name: string, f: () => void, n = 20000) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  console.log(name, (Number(process.hrtime.bigint() - t) / n).toFixed(0), 'ns');
}
let sink = 0;
for (let k = 0; k < 5; k++) {
  time('line', () => write(req, '/token', 200, 1.234));
  time('JSON.stringify', () => { sink += JSON.stringify({ level: 'info', time: new Date().toISOString(), service: 'gatehouse', listener: 'public', reqId: 'c0a8f5e2-3b1d-4c5e-9f7a-123456789abc', method: 'POST', route: '/token', status: 200, ms: 1.2, msg: 'request' }).length; });
  await new Promise((r) => setTimeout(r, 50));
}
console.log(sink > 0);
