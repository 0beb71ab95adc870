/**
 * Child process of crash.test.ts: opens the sqlite store at argv[2] and writes until it is killed, appending a
 * line per acknowledged write to the file argv[4]: `create <key> <revision> <length>` or `counter <value> <revision>`.
 * Acks go to a file with a synchronous write (not to a pipe, whose writes Node may queue in memory), so every
 * line is in the kernel before the next write starts and survives SIGKILL.
 * 16 concurrent creators exercise group commit; one serial writer increments a counter key.
 */
import { openSync, writeSync } from 'node:fs';
import { openSqliteStore } from '../sqlite-store.ts';

const path = process.argv[2]!;
const round = process.argv[3] ?? '0';
const acks = openSync(process.argv[4]!, 'a');
const ack = (line: string): void => void writeSync(acks, `${line}\n`);
const store = await openSqliteStore({ path, keyPrefix: '/registry/' });
const enc = new TextEncoder();
const counterKey = '/registry/crash/counter';

process.stdout.write('ready\n');

async function creator(w: number): Promise<void> {
  for (let i = 0; ; i++) {
    const key = `/registry/crash/r${round}-w${w}-${i}`;
    const value = `${key}=${'x'.repeat((i * 37) % 900)}`;
    const r = await store.create(key, enc.encode(value));
    if (!r.succeeded) throw new Error(`create of fresh key ${key} failed`);
    ack(`create ${key} ${r.revision} ${value.length}`);
  }
}

async function counter(): Promise<void> {
  let cur = await store.get(counterKey);
  if (!cur) {
    const c = await store.create(counterKey, enc.encode('0'));
    if (!c.succeeded) throw new Error('counter create failed');
    cur = c.kv;
  }
  for (;;) {
    const next = Number(new TextDecoder().decode(cur.value)) + 1;
    const r = await store.update(counterKey, enc.encode(String(next)), { expectedModRevision: cur.modRevision });
    if (!r.succeeded) throw new Error('the only counter writer lost a guard');
    ack(`counter ${next} ${r.revision}`);
    cur = r.kv;
  }
}

await Promise.all([...Array(16).keys()].map(creator).concat(counter()));
