/**
 * Just enough of the protobuf wire format to read what an ONNX file says about itself before any
 * runtime touches it: its metadata (Ultralytics writes `names` and `imgsz` there) and every
 * external-data location its tensors name (which must stay inside the model's folder).
 * Field numbers are onnx.proto's (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto).
 */

export class ProtoError extends Error {
  override readonly name = 'ProtoError';
}

interface Field {
  no: number;
  wire: number;
  /** Varint value (wire 0). */
  int: number;
  /** Bytes of a length-delimited field (wire 2). */
  start: number;
  end: number;
}

function* fields(buf: Uint8Array, start: number, end: number): Generator<Field> {
  let at = start;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (at >= end) throw new ProtoError('the file ends inside a number');
      const b = buf[at++] ?? 0;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    throw new ProtoError('a number is longer than protobuf allows');
  };
  while (at < end) {
    const key = varint();
    const no = Math.floor(key / 8);
    const wire = key % 8;
    const f: Field = { no, wire, int: 0, start: at, end: at };
    if (wire === 0) f.int = varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const len = varint();
      f.start = at;
      f.end = at + len;
      at += len;
    } else throw new ProtoError(`unsupported wire type ${wire}`);
    if (at > end) throw new ProtoError('a field runs past the end of the file');
    yield f;
  }
}

const text = (buf: Uint8Array, f: Field): string =>
  Buffer.from(buf.buffer, buf.byteOffset + f.start, f.end - f.start).toString('utf8');

/** key → value of a repeated StringStringEntryProto (key = 1, value = 2). */
function entry(buf: Uint8Array, f: Field): [string, string] {
  let key = '';
  let value = '';
  for (const g of fields(buf, f.start, f.end)) {
    if (g.wire !== 2) continue;
    if (g.no === 1) key = text(buf, g);
    else if (g.no === 2) value = text(buf, g);
  }
  return [key, value];
}

export interface OnnxFacts {
  metadata: Record<string, string>;
  /** The `location` of every tensor stored as external data, in the order met. */
  externalLocations: string[];
  /** The opset version of the default domain (0 when absent). */
  opset: number;
}

/** Tensor (initializer or attribute value): external_data = 13. */
function scanTensor(buf: Uint8Array, f: Field, out: string[]): void {
  for (const g of fields(buf, f.start, f.end)) {
    if (g.no !== 13 || g.wire !== 2) continue;
    const [key, value] = entry(buf, g);
    if (key === 'location') out.push(value);
  }
}

/** Graph: node = 1, initializer = 5, sparse_initializer = 15 (values = 1, indices = 2). */
function scanGraph(buf: Uint8Array, f: Field, out: string[], depth: number): void {
  if (depth > 32) throw new ProtoError('subgraphs nest deeper than 32 levels');
  for (const g of fields(buf, f.start, f.end)) {
    if (g.wire !== 2) continue;
    if (g.no === 5) scanTensor(buf, g, out);
    else if (g.no === 1) scanNode(buf, g, out, depth);
    else if (g.no === 15) {
      for (const s of fields(buf, g.start, g.end)) if (s.wire === 2) scanTensor(buf, s, out);
    }
  }
}

/** Node: attribute = 5; Attribute: t = 5, g = 6, tensors = 10, graphs = 11. */
function scanNode(buf: Uint8Array, f: Field, out: string[], depth: number): void {
  for (const a of fields(buf, f.start, f.end)) {
    if (a.no !== 5 || a.wire !== 2) continue;
    for (const v of fields(buf, a.start, a.end)) {
      if (v.wire !== 2) continue;
      if (v.no === 5 || v.no === 10) scanTensor(buf, v, out);
      else if (v.no === 6 || v.no === 11) scanGraph(buf, v, out, depth + 1);
    }
  }
}

/** Model: graph = 7, opset_import = 8 (domain = 1, version = 2), metadata_props = 14. */
export function readOnnxFacts(buf: Uint8Array): OnnxFacts {
  const metadata: Record<string, string> = {};
  const externalLocations: string[] = [];
  let opset = 0;
  let graphs = 0;
  for (const f of fields(buf, 0, buf.length)) {
    if (f.wire !== 2) continue;
    if (f.no === 14) {
      const [key, value] = entry(buf, f);
      metadata[key] = value;
    } else if (f.no === 7) {
      graphs++;
      scanGraph(buf, f, externalLocations, 0);
    } else if (f.no === 8) {
      let domain = '';
      let version = 0;
      for (const g of fields(buf, f.start, f.end)) {
        if (g.no === 1 && g.wire === 2) domain = text(buf, g);
        else if (g.no === 2 && g.wire === 0) version = g.int;
      }
      if (domain === '' || domain === 'ai.onnx') opset = version;
    }
  }
  if (graphs !== 1) throw new ProtoError('it holds no model graph');
  return { metadata, externalLocations, opset };
}
