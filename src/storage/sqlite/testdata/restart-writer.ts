/**
 * Child process of crash.test.ts's kill/restart loop: opens the sqlite store at argv[2] (as a server would,
 * default lock wait) and runs argv[4] (default 32) concurrent writer loops until it is killed. Prints to
 * stdout, one line each (stdout to a pipe is written synchronously on Linux, so a printed line survives
 * SIGKILL):
 *   `ready <ms to open> <pid>`                the store is open
 *   `refused <message>` (then exit 3)         the open failed
 *   `create <key> <revision> <value>`         an acknowledged create of a fresh key
 *   `update <key> <revision> <sequence>`      an acknowledged guarded update of the writer's own key
 * Writer w owns `/registry/restart/own/w<w>` and is its only writer, so a lost guard would mean a second
 * owner wrote it: that ends the child with exit code 2.
 */
import { openSqliteStore } from '../sqlite-store.ts';

const path = process.argv[2]!;
const cycle = process.argv[3] ?? '0';
const writers = Number(process.argv[4] ?? 32);
const enc = new TextEncoder();
const dec = new TextDecoder();
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const t0 = performance.now();
let store;
try {
  store = await openSqliteStore({ path, keyPrefix: '/registry/' });
} catch (err) {
  say(`refused ${(err as Error).message}`);
  process.exit(3);
}
const s = store;
say(`ready ${Math.round(performance.now() - t0)} ${process.pid}`);

async function writer(w: number): Promise<void> {
  const own = `/registry/restart/own/w${w}`;
  let cur = await s.get(own);
  if (!cur) {
    const r = await s.create(own, enc.encode('0'));
    if (!r.succeeded) throw new Error(`create of ${own} lost: a second owner?`);
    cur = r.kv;
  }
  for (let i = 0; ; i++) {
    const key = `/registry/restart/c${cycle}/w${w}/${i}`;
    const value = `${cycle}.${w}.${i}`;
    const c = await s.create(key, enc.encode(value));
    if (!c.succeeded) throw new Error(`create of fresh key ${key} failed`);
    say(`create ${key} ${c.revision} ${value}`);
    const seq = Number(dec.decode(cur.value)) + 1;
    const u = await s.update(own, enc.encode(String(seq)), { expectedModRevision: cur.modRevision });
    if (!u.succeeded) throw new Error(`guarded update of ${own} lost: a second owner?`);
    say(`update ${own} ${u.revision} ${seq}`);
    cur = u.kv;
  }
}

try {
  await Promise.all([...Array(writers).keys()].map(writer));
} catch (err) {
  process.stderr.write(`writer failed: ${(err as Error).stack}\n`);
  process.exit(2);
}
