import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { startTcpLoadBalancer, type Backend } from './tcp-load-balancer.ts';

const servers: net.Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/** A backend that answers every connection with its name, then echoes what it gets. */
async function namedBackend(name: string): Promise<Backend> {
  const srv = net.createServer({ allowHalfOpen: true }, (s) => {
    s.on('error', () => s.destroy());
    s.write(`${name}\n`);
    s.pipe(s);
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { host: '127.0.0.1', port: (srv.address() as net.AddressInfo).port };
}

async function refusedBackend(): Promise<Backend> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return { host: '127.0.0.1', port };
}

/** Connects through the balancer, sends `msg`, half-closes, and returns everything read until the end. */
function roundTrip(port: number, msg: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => s.end(msg));
    let got = '';
    s.setEncoding('utf8').on('data', (d: string) => (got += d));
    s.on('end', () => resolve(got));
    s.on('error', reject);
    s.setTimeout(5000, () => s.destroy(new Error('timeout')));
  });
}

test('connections go round-robin over the backends, skipping one that refuses', async () => {
  const a = await namedBackend('a');
  const b = await namedBackend('b');
  const lb = await startTcpLoadBalancer({ backends: [a, await refusedBackend(), b] });
  try {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await roundTrip(lb.port, `hello ${i}`));
    assert.deepEqual(answers.map((x) => x.split('\n')[0]).sort(), ['a', 'a', 'b', 'b']);
    // Bytes pass through both ways and the backend's end reaches the client.
    assert.ok(answers.every((x, i) => x.endsWith(`hello ${i}`)), JSON.stringify(answers));
  } finally {
    await lb.close();
  }
});

test('a client is reset when every backend refuses', async () => {
  const lb = await startTcpLoadBalancer({ backends: [await refusedBackend(), await refusedBackend()] });
  try {
    await assert.rejects(roundTrip(lb.port, 'x'), /ECONNRESET|socket hang up/);
  } finally {
    await lb.close();
  }
});
