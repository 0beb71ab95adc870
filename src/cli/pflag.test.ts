import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFlags, splitCsv, FlagError, type FlagDef } from './pflag.ts';
import { parseDuration, formatDuration } from '../machinery/duration.ts';

const defs: FlagDef[] = [
  { name: 'port', kind: 'int', usage: '', default: 6443 },
  { name: 'addr', kind: 'string', usage: '', default: '127.0.0.1' },
  { name: 'bind-address', kind: 'string', usage: '', default: '' },
  { name: 'anon', kind: 'bool', usage: '', default: true },
  { name: 'debug', kind: 'bool', usage: '', default: false },
  { name: 'modes', kind: 'stringSlice', usage: '', default: ['AlwaysAllow'] },
  { name: 'keys', kind: 'stringArray', usage: '', default: [] },
  { name: 'rc', kind: 'map', usage: '', default: {} },
  { name: 'gates', kind: 'boolMap', usage: '', default: {} },
  { name: 'delay', kind: 'duration', usage: '', default: 0 },
  { name: 'verbosity', kind: 'int', usage: '', default: 0, shorthand: 'v' },
];

const ok: [string, string[], Record<string, unknown>, string[]?][] = [
  ['equals form', ['--port=7000'], { port: 7000 }],
  ['space form', ['--port', '7000'], { port: 7000 }],
  ['underscore read as dash', ['--bind_address=::1'], { 'bind-address': '::1' }],
  ['bool bare', ['--debug'], { debug: true }],
  ['bool =false', ['--anon=false'], { anon: false }],
  ['bool does not take the next arg', ['--debug', 'false'], { debug: true }, ['false']],
  ['bool accepts Go spellings', ['--anon=F', '--debug=1'], { anon: false, debug: true }],
  ['comma list replaces default', ['--modes=Node,RBAC'], { modes: ['Node', 'RBAC'] }],
  ['repeated list accumulates', ['--modes=Node', '--modes', 'RBAC'], { modes: ['Node', 'RBAC'] }],
  ['empty list', ['--modes='], { modes: [] }],
  ['string array keeps commas', ['--keys=a,b', '--keys=c'], { keys: ['a,b', 'c'] }],
  ['map k=v pairs', ['--rc=api/all=true,batch/v1=false'], { rc: { 'api/all': 'true', 'batch/v1': 'false' } }],
  ['map repeated merges', ['--rc=a=1', '--rc=b=2,a=3'], { rc: { a: '3', b: '2' } }],
  ['bool map', ['--gates=Foo=true,Bar=false'], { gates: { Foo: true, Bar: false } }],
  ['duration seconds', ['--delay=30s'], { delay: 30_000 }],
  ['duration go form', ['--delay=1m0s'], { delay: 60_000 }],
  ['duration compound', ['--delay', '1h2m3.5s'], { delay: 3_723_500 }],
  ['shorthand', ['-v', '4'], { verbosity: 4 }],
  ['shorthand attached', ['-v4'], { verbosity: 4 }],
  ['shorthand equals', ['-v=2'], { verbosity: 2 }],
  ['long name of shorthand flag', ['--verbosity=3'], { verbosity: 3 }],
  ['hex int', ['--port=0x10'], { port: 16 }],
  ['double dash ends flags', ['--', '--port=1'], {}, ['--port=1']],
  ['defaults when absent', [], { port: 6443, addr: '127.0.0.1', anon: true, modes: ['AlwaysAllow'] }],
];

for (const [name, argv, want, args] of ok) {
  void test(`pflag: ${name}`, () => {
    const p = parseFlags(defs, argv);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(p.values.get(k), v, k);
    assert.deepEqual(p.args, args ?? []);
  });
}

const bad: [string, string[], string][] = [
  ['unknown flag', ['--nope=1'], 'unknown flag: --nope'],
  ['unknown flag without value', ['--nope'], 'unknown flag: --nope'],
  ['missing argument', ['--port'], 'flag needs an argument: --port'],
  ['bad int', ['--port=abc'], 'invalid argument "abc" for "--port" flag: strconv.ParseInt: parsing "abc": invalid syntax'],
  ['bad bool', ['--anon=maybe'], 'invalid argument "maybe" for "--anon" flag: strconv.ParseBool: parsing "maybe": invalid syntax'],
  ['bad duration', ['--delay=5'], 'invalid argument "5" for "--delay" flag: time: invalid duration "5"'],
  ['bad shorthand', ['-x'], "unknown shorthand flag: 'x' in -x"],
  ['bad syntax', ['---port=1'], 'bad flag syntax: ---port=1'],
  ['bad bool map', ['--gates=Foo'], 'invalid argument "Foo" for "--gates" flag: missing bool value for Foo'],
];
for (const [name, argv, msg] of bad) {
  void test(`pflag rejects: ${name}`, () => {
    assert.throws(() => parseFlags(defs, argv), (e: unknown) => e instanceof FlagError && e.message === msg);
  });
}

void test('pflag: -h and --help ask for help', () => {
  assert.equal(parseFlags(defs, ['-h']).help, true);
  assert.equal(parseFlags(defs, ['--help']).help, true);
  assert.equal(parseFlags(defs, ['--port=1']).help, false);
});

void test('pflag: changed tracks given flags only', () => {
  const p = parseFlags(defs, ['--port=1', '--debug']);
  assert.deepEqual([...p.changed].sort(), ['debug', 'port']);
});

void test('csv split honours quotes', () => {
  assert.deepEqual(splitCsv('a,"b,c",d'), ['a', 'b,c', 'd']);
  assert.deepEqual(splitCsv(''), []);
  assert.throws(() => splitCsv('"a'), FlagError);
});

void test('durations round-trip Go forms', () => {
  assert.equal(parseDuration('0'), 0);
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('1.5h'), 5_400_000);
  assert.equal(parseDuration('-2s'), -2000);
  assert.equal(parseDuration(''), undefined);
  assert.equal(parseDuration('1x'), undefined);
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(60_000), '1m0s');
  assert.equal(formatDuration(30_000), '30s');
  assert.equal(formatDuration(5_400_000), '1h30m0s');
  assert.equal(formatDuration(250), '250ms');
});
