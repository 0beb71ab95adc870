/**
 * The Kubernetes CEL libraries, one case per function, with the results cel-go (and kube's libraries) give.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CelCompileError, CelEvalError, compileCel } from '../index.ts';

const ev = (src: string): unknown => compileCel(src, { profile: 'crd', variables: {} }).evaluate({}).value;
const table = (cases: ReadonlyArray<readonly [string, unknown]>) => {
  for (const [src, want] of cases) assert.deepEqual(ev(src), want, src);
};
const evalFails = (src: string, msg: RegExp | string) =>
  assert.throws(() => ev(src), (e: Error) => e instanceof CelEvalError && (typeof msg === 'string' ? e.message === msg : msg.test(e.message)), src);

describe('ext strings v2', () => {
  it('indexes by code point', () => table([
    ['"héllo".charAt(1)', 'é'], ['"abc".charAt(3)', ''], ['"héllo".indexOf("l")', 2], ['"hello".indexOf("l", 3)', 3],
    ['"hello".indexOf("")', 0], ['"hello".lastIndexOf("l")', 3], ['"hello".lastIndexOf("l", 2)', 2], ['"hello".lastIndexOf("x")', -1],
    ['"héllo".substring(1, 3)', 'él'], ['"hello".substring(2)', 'llo'], ['"héllo".size()', 5],
  ]));
  it('case, trim, replace, split, join, quote', () => table([
    ['"ÀbC".lowerAscii()', 'Àbc'], ['"àbc".upperAscii()', 'àBC'], ['" \\t x \\n".trim()', 'x'],
    ['"hello".replace("l", "L")', 'heLLo'], ['"hello".replace("l", "L", 1)', 'heLlo'], ['"ab".replace("", "-")', '-a-b-'],
    ['"a,b,c".split(",")', ['a', 'b', 'c']], ['"a,b,c".split(",", 2)', ['a', 'b,c']], ['"a,b".split(",", 0)', []], ['"héy".split("")', ['h', 'é', 'y']],
    ['["a", "b"].join()', 'ab'], ['["a", "b"].join("-")', 'a-b'], ['strings.quote("a\\nb\\"c")', '"a\\nb\\"c"'],
  ]));
  it('format', () => table([
    ['"%s is %d".format([dyn("x"), dyn(3)])', 'x is 3'], ['"%.2f|%e".format([1.5, 1000.0])', '1.50|1.000000e+03'],
    ['"%x %X %o %b".format([255, 255, 8, 5])', 'ff FF 10 101'], ['"%s".format([[1, 2]])', '[1, 2]'], ['"100%%".format([])', '100%'],
  ]));
  it('list literals are homogeneous as in kube, except format() arguments', () => {
    assert.equal(ev('"%s %d".format(["x", 3])'), 'x 3');
    assert.throws(() => ev('["x", 3].size()'), /ERROR: <input>:1:7: expected type 'string' but found 'int'/);
    assert.throws(() => ev('{"a": 1, "b": "c"}.size()'), /expected type 'int' but found 'string'/);
  });
  it('literal duration, timestamp and regex arguments are validated at compile time', () => {
    assert.throws(() => ev('duration("1x")'), (e: Error) => e instanceof CelCompileError && /invalid duration argument/.test(e.message));
    assert.throws(() => ev('timestamp("yesterday")'), /invalid timestamp argument/);
    assert.throws(() => ev('"a".matches("(?=a)")'), /ERROR: <input>:1:13: invalid matches argument/);
  });
  it('errors as cel-go', () => {
    evalFails('"abc".charAt(4)', 'index out of range: 4');
    evalFails('"abc".substring(2, 1)', 'invalid substring range. start: 2, end: 1');
    evalFails('"abc".indexOf("c", 5)', 'index out of range: 5');
    evalFails('"%d".format(["x"])', /decimal clause can only be used on integers/);
  });
});

describe('regex', () => {
  it('matches with RE2 semantics, find and findAll', () => table([
    ['"abc".matches("^a.c$")', true], ['matches("abc", "b")', true], ['"ABC".matches("(?i)abc")', true],
    ['"a1b22c333".findAll("[0-9]+")', ['1', '22', '333']], ['"a1b22c333".findAll("[0-9]+", 2)', ['1', '22']],
    ['"a1b22".find("[0-9]+")', '1'], ['"abc".find("[0-9]+")', ''], ['"x9".find("[[:digit:]]")', '9'],
  ]));
  it('refuses what RE2 refuses, with Go regexp wording', () => {
    const re = (p: string) => compileCel('"abc".matches(p)', { profile: 'crd', variables: { p: 'string' } }).evaluate({ p }).value;
    assert.throws(() => re('(?=a)'), (e: Error) => e instanceof CelEvalError && e.message === 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    assert.throws(() => re('(a'), (e: Error) => e instanceof CelEvalError && e.message === 'error parsing regexp: missing closing ): `(a`');
  });
});

describe('lists and sets', () => {
  it('isSorted, sum, min, max, indexOf, lastIndexOf', () => table([
    ['[1, 2, 3].isSorted()', true], ['["b", "a"].isSorted()', false], ['[1, 2].sum()', 3], ['[1.5, 2.0].sum()', 3.5], ['[].sum()', 0],
    ['[3, 1, 2].min()', 1], ['[3, 1, 2].max()', 3], ['[1, 2, 1].indexOf(1)', 0], ['[1, 2, 1].lastIndexOf(1)', 2], ['[1].indexOf(5)', -1],
    ['[duration("1s"), duration("2s")].sum()', '3s'],
  ]));
  it('sets.contains, equivalent, intersects', () => table([
    ['sets.contains([1, 2, 3], [3, 1])', true], ['sets.contains([1], [2])', false], ['sets.contains([1], [])', true],
    ['sets.equivalent([1, 2, 2], [2, 1])', true], ['sets.intersects([1, 2], [2, 5])', true], ['sets.intersects([1], [])', false],
  ]));
  it('min of an empty list fails', () => evalFails('[].min()', /argument must not be empty/));
});

describe('urls', () => {
  it('parses as url.ParseRequestURI and reads parts', () => table([
    ['url("https://user@example.com:8080/a%20b?x=1").getHost()', 'example.com:8080'], ['url("HTTPS://e.com").getScheme()', 'https'],
    ['url("https://[::1]:80/").getHostname()', '::1'], ['url("https://[::1]:80/").getPort()', '80'], ['url("https://e.com/").getPort()', ''],
    ['url("https://example.com/a%20b").getEscapedPath()', '/a%20b'], ['url("/just/a/path").getHost()', ''],
    ['url("https://e.com/?x=1&x=2&y").getQuery()', { x: ['1', '2'], y: [''] }],
    ['isURL("mailto:x")', false], ['isURL("https://e.com")', true], ['isURL("e.com")', false],
  ]));
  it('url() of a bad string fails', () => evalFails('url("x")', 'URL parse error during conversion from string: parse "x": invalid URI for request'));
});

describe('quantity', () => {
  it('parses, compares and does arithmetic exactly', () => table([
    ['quantity("1Gi").isGreaterThan(quantity("1000Mi"))', true], ['quantity("100m").isLessThan(quantity("1"))', true],
    ['quantity("1").compareTo(quantity("1000m"))', 0], ['quantity("1") == quantity("1000m")', true],
    ['quantity("1.5").isInteger()', false], ['quantity("2k").asInteger()', 2000], ['quantity("-1").sign()', -1],
    ['quantity("500m").add(quantity("1")).asApproximateFloat()', 1.5], ['quantity("2").sub(1).asInteger()', 1], ['quantity("1").add(2).asInteger()', 3],
    ['isQuantity("1x")', false], ['isQuantity("1e3")', true],
  ]));
  it('errors', () => {
    evalFails('quantity("1x")', /^quantities must match the regular expression/);
    evalFails('quantity("1.5").asInteger()', 'cannot convert value to integer');
  });
});

describe('ip and cidr', () => {
  it('ip', () => table([
    ['ip("10.0.0.1").family()', 4], ['ip("::1").family()', 6], ['ip("::1").isLoopback()', true], ['ip("127.0.0.2").isLoopback()', true],
    ['ip("0.0.0.0").isUnspecified()', true], ['ip("169.254.1.1").isLinkLocalUnicast()', true], ['ip("fe80::1").isLinkLocalUnicast()', true],
    ['ip("224.0.0.1").isLinkLocalMulticast()', true], ['ip("ff02::1").isLinkLocalMulticast()', true], ['ip("8.8.8.8").isGlobalUnicast()', true],
    ['ip("255.255.255.255").isGlobalUnicast()', false], ['string(ip("2001:db8:0:0:0:0:0:1"))', '2001:db8::1'], ['ip.isCanonical("2001:db8::1")', true],
    ['ip.isCanonical("2001:DB8::1")', false], ['ip("1.2.3.4") == ip("1.2.3.4")', true], ['isIP("1.2.3")', false], ['isIP("::ffff:1.2.3.4")', false],
    ['isIP("fe80::1%eth0")', false],
  ]));
  it('cidr', () => table([
    ['cidr("10.0.0.0/8").containsIP("10.1.2.3")', true], ['cidr("10.0.0.0/8").containsIP(ip("11.0.0.1"))', false],
    ['cidr("10.0.0.0/8").containsCIDR(cidr("10.1.0.0/16"))', true], ['cidr("10.1.0.0/16").containsCIDR("10.0.0.0/8")', false],
    ['string(cidr("10.1.2.3/8").masked())', '10.0.0.0/8'], ['string(cidr("10.1.2.3/8").ip())', '10.1.2.3'], ['cidr("10.0.0.0/8").prefixLength()', 8],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true], ['isCIDR("10.0.0.0/33")', false], ['isCIDR("::ffff:1.2.3.4/120")', false],
  ]));
  it('errors word the input', () => {
    evalFails('ip("01.2.3.4")', /^IP Address "01.2.3.4" parse error during conversion from string: .*leading zero/);
    evalFails('cidr("1.2.3.4")', /^network address "1.2.3.4" parse error during conversion from string/);
  });
});

describe('format', () => {
  it('validate gives none or kube messages', () => table([
    ['format.dns1123Label().validate("abc").hasValue()', false], ['format.dns1123Label().validate("a.b").value()', ['must not contain dots']],
    ['format.dns1123LabelPrefix().validate("abc-").hasValue()', false], ['format.labelValue().validate("a b").hasValue()', true],
    ['format.named("uuid").hasValue()', true], ['format.named("nope").hasValue()', false],
    ['format.named("uuid").value().validate("123e4567-e89b-12d3-a456-426614174000").hasValue()', false],
    ['format.qualifiedName().validate("example.com/Name").hasValue()', false], ['format.date().validate("2024-02-30").hasValue()', true],
  ]));
});

describe('semver', () => {
  it('parses strictly or normalized and compares', () => table([
    ['semver("1.2.3").isLessThan(semver("1.10.0"))', true], ['semver("1.0.0-alpha").isLessThan(semver("1.0.0"))', true],
    ['semver("1.0.0-alpha.1").compareTo(semver("1.0.0-alpha.beta"))', -1], ['semver("v1.2", true).minor()', 2], ['semver("1.2.3").patch()', 3],
    ['isSemver("1.2")', false], ['isSemver("v1.02", true)', true], ['semver("1.2.3+build") == semver("1.2.3")', true],
  ]));
  it('semver values have no < operator (kube: compareTo)', () => assert.throws(() => ev('semver("1.0.0") < semver("2.0.0")'), CelCompileError));
});

describe('optional types', () => {
  it('?. and optional.of/none/orValue/hasValue', () => {
    const p = compileCel('m.?a.orValue(0) + m[?"b"].orValue(5)', { profile: 'crd', variables: { m: { map: 'int' } } });
    assert.equal(p.evaluate({ m: { a: 1 } }).value, 6);
    table([['optional.of(1).hasValue()', true], ['optional.none().orValue(2)', 2], ['optional.of(3).value()', 3]]);
  });
});

describe('timestamps and durations', () => {
  it('accessors in UTC, IANA zones and fixed offsets', () => table([
    ["timestamp('2009-02-13T23:31:30Z').getFullYear()", 2009], ["timestamp('2009-02-13T23:31:30Z').getMonth()", 1],
    ["timestamp('2009-02-13T23:31:30Z').getDayOfYear()", 43], ["timestamp('2009-02-13T23:31:30Z').getDayOfMonth()", 12],
    ["timestamp('2009-02-13T23:31:30Z').getDate()", 13], ["timestamp('2009-02-13T23:31:30Z').getDayOfWeek()", 5],
    ["timestamp('2009-02-13T23:31:30.123Z').getMilliseconds()", 123], ["timestamp('2009-02-13T23:31:30Z').getDayOfMonth('+11:00')", 13],
    ["timestamp('2009-02-13T02:00:00Z').getDayOfMonth('-02:30')", 11], ["timestamp('2009-02-13T23:31:30Z').getHours('02:00')", 1],
    ["timestamp('2009-02-13T23:31:30Z').getHours('America/New_York')", 18], ["timestamp('2009-02-13T23:31:30Z').getFullYear('-09:30')", 2009],
    ["duration('3730s').getHours()", 1], ["duration('3730s').getMinutes()", 62], ["duration('3730s').getSeconds()", 3730],
    ["duration('1.5s').getMilliseconds()", 1500],
  ]));
  it('unknown zones fail', () => evalFails("timestamp('2009-02-13T23:31:30Z').getHours('Mars/Base')", 'invalid time zone: Mars/Base'));
});

describe('only kube functions', () => {
  it("refuses cel-js extras kube's environment lacks", () => {
    for (const src of ['b"a".hex()', 'b"{}".json()', 'b"a".at(0)', 'cel.bind(x, 1, x + 1)']) {
      assert.throws(() => ev(src), (e: Error) => e instanceof CelCompileError && /undeclared reference/.test(e.message), src);
    }
  });
});

describe('known gaps (cel-js cannot express these yet)', () => {
  it('has() on a map literal', { skip: 'cel-js accepts has() only on identifiers and selections of them' }, () => {
    assert.equal(ev('has({"a": 1}.a)'), true);
  });
  it('optMap / optFlatMap', { skip: 'cel-js has no optMap/optFlatMap macros' }, () => {
    assert.equal(ev('optional.of(1).optMap(x, x + 1).value()'), 2);
  });
  it('optional entries in list and map literals', { skip: 'cel-js parser lacks [?e] and {?k: v}' }, () => {
    assert.deepEqual(ev('[?optional.none(), 1]'), [1]);
  });
  it('timestamp and duration range errors', { skip: 'cel-js arithmetic does not bound timestamps to years 1-9999' }, () => {
    assert.throws(() => ev('timestamp("9999-12-31T23:59:59Z") + duration("1s")'));
  });
});
