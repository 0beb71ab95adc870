/**
 * The Swagger 2.0 document in gnostic's protobuf form (openapi.v2.Document), which kubectl ≤ 1.28 and older
 * client-go ask for on /openapi/v2 (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`).
 *
 * Covers the subset of Swagger our documents use: paths with operations, body/query/path parameters and
 * `$ref` parameters, responses with schemas, definitions (ref, type, format, description, required,
 * properties, items, allOf, additionalProperties, default, enum, uniqueItems), security, and vendor
 * extensions (encoded as gnostic does: Any.yaml holding the value as YAML; JSON is valid YAML).
 * Field numbers follow gnostic's OpenAPIv2.proto.
 */

type J = Record<string, unknown>;

/** A minimal protobuf writer: fields are appended in call order; nested messages are written whole. */
class Msg {
  private readonly parts: Buffer[] = [];

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  private varint(n: number): void {
    const bytes: number[] = [];
    let v = n;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.parts.push(Buffer.from(bytes));
  }

  str(field: number, v: unknown): this {
    if (typeof v !== 'string' || v === '') return this;
    const b = Buffer.from(v, 'utf8');
    this.tag(field, 2);
    this.varint(b.length);
    this.parts.push(b);
    return this;
  }

  strs(field: number, v: unknown): this {
    if (Array.isArray(v)) for (const s of v) if (typeof s === 'string') this.strAlways(field, s);
    return this;
  }

  /** Repeated strings keep empty entries. */
  private strAlways(field: number, s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.tag(field, 2);
    this.varint(b.length);
    this.parts.push(b);
  }

  bool(field: number, v: unknown): this {
    if (v !== true) return this;
    this.tag(field, 0);
    this.varint(1);
    return this;
  }

  int(field: number, v: unknown): this {
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) return this;
    this.tag(field, 0);
    this.varint(v);
    return this;
  }

  msg(field: number, m: Msg | undefined): this {
    if (!m) return this;
    const b = m.bytes();
    this.tag(field, 2);
    this.varint(b.length);
    this.parts.push(b);
    return this;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const obj = (v: unknown): J => (v && typeof v === 'object' && !Array.isArray(v) ? (v as J) : {});

/** Any { yaml = 2 }. */
function anyOf(value: unknown): Msg {
  return new Msg().str(2, JSON.stringify(value));
}

function vendorExtensions(m: Msg, field: number, o: J): void {
  for (const [k, v] of Object.entries(o)) {
    if (!k.startsWith('x-')) continue;
    m.msg(field, new Msg().str(1, k).msg(2, anyOf(v)));
  }
}

function schema(s: J): Msg {
  const m = new Msg()
    .str(1, s['$ref'])
    .str(2, s['format'])
    .str(3, s['title'])
    .str(4, s['description']);
  if (s['default'] !== undefined) m.msg(5, anyOf(s['default']));
  m.bool(16, s['uniqueItems']);
  m.strs(19, s['required']);
  if (Array.isArray(s['enum'])) for (const e of s['enum']) m.msg(20, anyOf(e));
  const ap = s['additionalProperties'];
  if (typeof ap === 'boolean') m.msg(21, new Msg().bool(2, ap));
  else if (ap && typeof ap === 'object') m.msg(21, new Msg().msg(1, schema(obj(ap))));
  if (typeof s['type'] === 'string') m.msg(22, new Msg().str(1, s['type']));
  if (s['items'] && typeof s['items'] === 'object') m.msg(23, new Msg().msg(1, schema(obj(s['items']))));
  if (Array.isArray(s['allOf'])) for (const a of s['allOf']) m.msg(24, schema(obj(a)));
  if (s['properties']) {
    const p = new Msg();
    for (const [k, v] of Object.entries(obj(s['properties']))) p.msg(1, new Msg().str(1, k).msg(2, schema(obj(v))));
    m.msg(25, p);
  }
  vendorExtensions(m, 31, s);
  return m;
}

function parametersItem(p: J): Msg {
  if (typeof p['$ref'] === 'string') return new Msg().msg(2, new Msg().str(1, p['$ref']));
  if (p['in'] === 'body') {
    const body = new Msg().str(1, p['description']).str(2, p['name']).str(3, p['in']).bool(4, p['required']);
    if (p['schema']) body.msg(5, schema(obj(p['schema'])));
    return new Msg().msg(1, new Msg().msg(1, body));
  }
  let sub: Msg;
  let which: number;
  if (p['in'] === 'path') {
    sub = new Msg().bool(1, p['required']).str(2, p['in']).str(3, p['description']).str(4, p['name']).str(5, p['type']).str(6, p['format']).bool(19, p['uniqueItems']);
    which = 4;
  } else if (p['in'] === 'header') {
    sub = new Msg().bool(1, p['required']).str(2, p['in']).str(3, p['description']).str(4, p['name']).str(5, p['type']).str(6, p['format']).bool(19, p['uniqueItems']);
    which = 1;
  } else {
    // query (and formData, which shares the layout of the fields we use)
    sub = new Msg().bool(1, p['required']).str(2, p['in']).str(3, p['description']).str(4, p['name']).str(6, p['type']).str(7, p['format']).bool(20, p['uniqueItems']);
    which = p['in'] === 'formData' ? 2 : 3;
  }
  return new Msg().msg(1, new Msg().msg(2, new Msg().msg(which, sub)));
}

function operation(o: J): Msg {
  const m = new Msg().strs(1, o['tags']).str(2, o['summary']).str(3, o['description']).str(5, o['operationId']).strs(6, o['produces']).strs(7, o['consumes']);
  if (Array.isArray(o['parameters'])) for (const p of o['parameters']) m.msg(8, parametersItem(obj(p)));
  const responses = new Msg();
  for (const [code, r] of Object.entries(obj(o['responses']))) {
    const rr = obj(r);
    const resp = new Msg().str(1, rr['description']);
    if (rr['schema']) resp.msg(2, new Msg().msg(1, schema(obj(rr['schema']))));
    responses.msg(1, new Msg().str(1, code).msg(2, new Msg().msg(1, resp)));
  }
  m.msg(9, responses);
  m.strs(10, o['schemes']);
  m.bool(11, o['deprecated']);
  vendorExtensions(m, 13, o);
  return m;
}

const METHOD_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(p: J): Msg {
  const m = new Msg().str(1, p['$ref']);
  for (const [method, field] of Object.entries(METHOD_FIELDS)) if (p[method]) m.msg(field, operation(obj(p[method])));
  if (Array.isArray(p['parameters'])) for (const x of p['parameters']) m.msg(9, parametersItem(obj(x)));
  vendorExtensions(m, 10, p);
  return m;
}

/** Encodes a Swagger 2.0 document (as produced by documents.ts) as an openapi.v2.Document. */
export function encodeSwaggerProtobuf(doc: J): Buffer {
  const info = obj(doc['info']);
  const m = new Msg().str(1, doc['swagger']).msg(2, new Msg().str(1, info['title']).str(2, info['version']).str(3, info['description']));
  m.str(3, doc['host']).str(4, doc['basePath']).strs(5, doc['schemes']).strs(6, doc['consumes']).strs(7, doc['produces']);
  const paths = new Msg();
  for (const [k, v] of Object.entries(obj(doc['paths']))) paths.msg(2, new Msg().str(1, k).msg(2, pathItem(obj(v))));
  m.msg(8, paths);
  const defs = new Msg();
  for (const [k, v] of Object.entries(obj(doc['definitions']))) defs.msg(1, new Msg().str(1, k).msg(2, schema(obj(v))));
  m.msg(9, defs);
  if (Array.isArray(doc['security'])) {
    for (const req of doc['security']) {
      const r = new Msg();
      for (const [k, v] of Object.entries(obj(req))) r.msg(1, new Msg().str(1, k).msg(2, new Msg().strs(1, v)));
      m.msg(12, r);
    }
  }
  if (doc['securityDefinitions']) {
    const sd = new Msg();
    for (const [k, v] of Object.entries(obj(doc['securityDefinitions']))) {
      const d = obj(v);
      const item = d['type'] === 'apiKey'
        ? new Msg().msg(2, new Msg().str(1, d['type']).str(2, d['name']).str(3, d['in']).str(4, d['description']))
        : new Msg().msg(1, new Msg().str(1, d['type']).str(2, d['description']));
      sd.msg(1, new Msg().str(1, k).msg(2, item));
    }
    m.msg(13, sd);
  }
  vendorExtensions(m, 16, doc);
  return m.bytes();
}
