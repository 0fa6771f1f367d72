// The reference: scimmy + scimmy-routers on express, its store preloaded with the same users in memory.
import express from 'express';
import SCIMMY from 'scimmy';
import SCIMMYRouters from 'scimmy-routers';

const count = Number(process.env.SCIMMY_USERS ?? 100_000);
const users = Array.from({ length: count }, (_, i) => ({
  id: `u${i}`,
  userName: `user${i}@example.com`,
  name: { givenName: `Given${i}`, familyName: `Family${i}` },
  emails: [{ value: `user${i}@example.com`, type: 'work', primary: true }],
  active: true,
}));
type Egress = { id?: string; filter?: { match(values: unknown[]): unknown[] } };
const egress = (resource: Egress) => {
  if (resource.id) return users.filter((u) => u.id === resource.id);
  return resource.filter ? resource.filter.match(users) : users;
};
SCIMMY.Resources.declare(SCIMMY.Resources.User).egress(egress as never);
const app = express();
app.use('/scim/v2', new SCIMMYRouters({ type: 'bearer', docUri: 'http://localhost/docs', handler: () => 'bench' }));
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`listening http://127.0.0.1:${address.port}`);
});
