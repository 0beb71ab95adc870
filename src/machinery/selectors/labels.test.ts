import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseLabelSelector, SelectorParseError } from './labels.ts';

const QNAME_RE = "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'";
const NAME_PART = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', ${QNAME_RE})`;
const VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

void describe('parseLabelSelector: syntax and canonical form', () => {
  const cases: Array<[string, string]> = [
    ['', ''],
    ['   ', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a', 'a'],
    ['!a', '!a'],
    [' a = b , c ', 'a=b,c'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['b=1,a=2', 'a=2,b=1'],
    ['env in (prod, dev)', 'env in (dev,prod)'],
    ['env in (a,a)', 'env in (a)'],
    ['k in (in)', 'k in (in)'],
    ['in=notin', 'in=notin'],
    ['a=', 'a='],
    ['a=,b', 'a=,b'],
    ['a in (x,)', 'a in (,x)'],
    ['a in (,x)', 'a in (,x)'],
    ['a>5', 'a>5'],
    ['a<3', 'a<3'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a\tin\t(x)', 'a in (x)'],
  ];
  for (const [input, canonical] of cases) {
    void it(JSON.stringify(input), () => assert.equal(parseLabelSelector(input).toString(), canonical));
  }

  void it('empty selector selects everything', () => {
    const s = parseLabelSelector('');
    assert.equal(s.empty, true);
    assert.equal(s.matches(undefined), true);
    assert.equal(parseLabelSelector('a').empty, false);
  });

  void it('exposes requirements with kube operator names', () => {
    assert.deepEqual(parseLabelSelector('!b,a in (y,x),c>1').requirements.map((r) => [r.key, r.operator, r.values]), [
      ['a', 'in', ['x', 'y']], ['b', '!', []], ['c', 'gt', ['1']],
    ]);
  });

  void it('requiresExactMatch', () => {
    const s = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5');
    assert.equal(s.requiresExactMatch('a'), '1');
    assert.equal(s.requiresExactMatch('b'), '2');
    assert.equal(s.requiresExactMatch('c'), undefined);
    assert.equal(s.requiresExactMatch('d'), undefined);
    assert.equal(s.requiresExactMatch('z'), undefined);
  });
});

void describe('parseLabelSelector: matching', () => {
  const L = { env: 'prod', tier: 'web', n: '10' };
  const cases: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['env=prod', L, true],
    ['env==prod', L, true],
    ['env=dev', L, false],
    ['env!=dev', L, true],
    ['missing!=x', L, true],
    ['env!=prod', L, false],
    ['env in (dev,prod)', L, true],
    ['env in (dev)', L, false],
    ['missing in (x)', L, false],
    ['env notin (dev)', L, true],
    ['env notin (prod)', L, false],
    ['missing notin (x)', L, true],
    ['env', L, true],
    ['missing', L, false],
    ['!missing', L, true],
    ['!env', L, false],
    ['env=prod,tier=web', L, true],
    ['env=prod,tier=db', L, false],
    ['n>9', L, true],
    ['n>10', L, false],
    ['n<11', L, true],
    ['env>1', L, false],
    ['missing<1', L, false],
    ['a=', { a: '' }, true],
    ['a=', {}, false],
    ['a', undefined, false],
    ['!a', undefined, true],
  ];
  for (const [sel, labels, want] of cases) {
    void it(`${sel} on ${JSON.stringify(labels)}`, () => assert.equal(parseLabelSelector(sel).matches(labels), want));
  }
  void it('does not see inherited properties', () => {
    assert.equal(parseLabelSelector('toString').matches({}), false);
    assert.equal(parseLabelSelector('!constructor').matches({}), true);
  });
});

void describe('parseLabelSelector: errors worded as kube-apiserver', () => {
  const cases: Array<[string, string]> = [
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a<-3', `unable to parse requirement: values[0][a]: Invalid value: "-3": ${VALUE_MSG}`],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in ((', "unable to parse requirement: found '(', expected: ',', ')' or identifier"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a (', "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!a', "unable to parse requirement: found '!', expected: identifier"],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": ${NAME_PART}`],
    ['a/b/c', `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', ${QNAME_RE}) with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    ['Ex.com/a', "unable to parse requirement: <nil>: Invalid value: \"Ex.com/a\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
    [`${'k'.repeat(64)}`, `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`],
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_MSG}`],
    [`a=${'v'.repeat(64)}`, `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
    ['a in (ok,-x,-y)', `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${VALUE_MSG}, values[1][a]: Invalid value: "-y": ${VALUE_MSG}]`],
    ['a>x', `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a>-x', `unable to parse requirement: [values[0]: Invalid value: "-x": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "-x": ${VALUE_MSG}]`],
  ];
  for (const [input, message] of cases) {
    void it(JSON.stringify(input), () => {
      assert.throws(() => parseLabelSelector(input), (e: unknown) => {
        assert.ok(e instanceof SelectorParseError);
        assert.equal(e.message, message);
        return true;
      });
    });
  }
});
