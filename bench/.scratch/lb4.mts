import { destination } from '/work/wt-logs/node_modules/pino/pino.js';
const dest = destination({ dest: '/dev/null', sync: false, minLength: 4096 });
function time(name: string, f: () => void, n = 50000) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  return Number(process.hrtime.bigint() - t) / n;
}
let sink = 0;
const line = '{"level":"info","time":"2026-11-26T06:42:04.327Z","service":"gatehouse","listener":"public","reqId":"c0a8f5e2-3b1d-4c5e-9f7a-123456789abc","method":"POST","route":"/token","status":200,"ms":1.2,"msg":"request"}\n';
for (let k = 0; k < 6; k++) {
  const a = time('write', () => dest.write(line));
  const b = time('JSON.stringify', () => { sink += JSON.stringify({ level: 'info', time: 'x', service: 'gatehouse', listener: 'public', reqId: 'c0a8f5e2-3b1d-4c5e-9f7a-123456789abc', method: 'POST', route: '/token', status: 200, ms: 1.2, msg: 'request' }).length; });
  console.log('write', a.toFixed(0), 'stringify', b.toFixed(0));
  await new Promise((r) => setTimeout(r, 50));
}
console.log(sink > 0);
