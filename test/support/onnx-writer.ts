/**
 * Writes ONNX models from JavaScript (the protobuf wire format, onnx.proto's field numbers), so
 * tests and the bench build their own detectors with known outputs: no Python, no download.
 */

type Bytes = Uint8Array;

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

const concat = (parts: readonly Bytes[]): Bytes => Buffer.concat(parts);
const key = (field: number, wire: number) => Uint8Array.from(varint(field * 8 + wire));
const int = (field: number, n: number): Bytes =>
  concat([key(field, 0), Uint8Array.from(varint(n))]);
const bytes = (field: number, b: Bytes): Bytes =>
  concat([key(field, 2), Uint8Array.from(varint(b.length)), b]);
const str = (field: number, s: string) => bytes(field, Buffer.from(s, 'utf8'));
const float = (field: number, f: number): Bytes => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(f);
  return concat([key(field, 5), b]);
};

export interface TensorSpec {
  name: string;
  dims: readonly number[];
  /** float32 values, or int64 ones with `int64`. */
  values: ArrayLike<number>;
  int64?: boolean;
  /** Stored as external data at this location instead of inside the file. */
  externalLocation?: string;
}

function tensor(t: TensorSpec): Bytes {
  const raw = t.int64
    ? Buffer.from(BigInt64Array.from(Array.from(t.values, (v) => BigInt(v))).buffer)
    : Buffer.from(Float32Array.from(t.values).buffer);
  const head = [...t.dims.map((d) => int(1, d)), int(2, t.int64 ? 7 : 1), str(8, t.name)];
  if (t.externalLocation === undefined) return concat([...head, bytes(9, raw)]);
  const location = concat([str(1, 'location'), str(2, t.externalLocation)]);
  return concat([...head, bytes(13, location), int(14, 1)]);
}

export type Attribute =
  | { name: string; int: number }
  | { name: string; ints: readonly number[] }
  | { name: string; float: number };

function attribute(a: Attribute): Bytes {
  if ('int' in a) return concat([str(1, a.name), int(3, a.int), int(20, 2)]);
  if ('float' in a) return concat([str(1, a.name), float(2, a.float), int(20, 1)]);
  return concat([str(1, a.name), ...a.ints.map((i) => int(8, i)), int(20, 7)]);
}

export interface NodeSpec {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: readonly Attribute[];
}

function node(n: NodeSpec, i: number): Bytes {
  return concat([
    ...n.inputs.map((x) => str(1, x)),
    ...n.outputs.map((x) => str(2, x)),
    str(3, `n${i}`),
    str(4, n.op),
    ...(n.attributes ?? []).map((a) => bytes(5, attribute(a))),
  ]);
}

/** A float tensor's value info; a string dim is symbolic. */
function valueInfo(name: string, dims: readonly (number | string)[]): Bytes {
  const shape = concat(dims.map((d) => bytes(1, typeof d === 'number' ? int(1, d) : str(2, d))));
  return concat([str(1, name), bytes(2, bytes(1, concat([int(1, 1), bytes(2, shape)])))]);
}

export interface ModelSpec {
  input: { name: string; dims: readonly (number | string)[] };
  output: { name: string; dims: readonly (number | string)[] };
  nodes: readonly NodeSpec[];
  initializers?: readonly TensorSpec[];
  metadata?: Record<string, string>;
  opset?: number;
}

export function onnxModel(m: ModelSpec): Bytes {
  const graph = concat([
    ...m.nodes.map((n, i) => bytes(1, node(n, i))),
    str(2, 'g'),
    ...(m.initializers ?? []).map((t) => bytes(5, tensor(t))),
    bytes(11, valueInfo(m.input.name, m.input.dims)),
    bytes(12, valueInfo(m.output.name, m.output.dims)),
  ]);
  return concat([
    int(1, 8),
    str(2, 'labeldesk-test'),
    bytes(7, graph),
    bytes(8, concat([str(1, ''), int(2, m.opset ?? 13)])),
    ...Object.entries(m.metadata ?? {}).map(([k, v]) => bytes(14, concat([str(1, k), str(2, v)]))),
  ]);
}

/**
 * A detector whose first output is `values` whatever the image (its mean times zero is added, so
 * the image is still an input the runtime checks).
 */
export function constantDetector(
  size: { width: number; height: number },
  outDims: readonly number[],
  values: ArrayLike<number>,
  metadata?: Record<string, string>,
  externalLocation?: string,
): Bytes {
  return onnxModel({
    input: { name: 'images', dims: [1, 3, size.height, size.width] },
    output: { name: 'output0', dims: outDims },
    initializers: [
      { name: 'C', dims: outDims, values, ...(externalLocation ? { externalLocation } : {}) },
      { name: 'zero', dims: [], values: [0] },
    ],
    nodes: [
      {
        op: 'ReduceMean',
        inputs: ['images'],
        outputs: ['m'],
        attributes: [{ name: 'keepdims', int: 0 }],
      },
      { op: 'Mul', inputs: ['m', 'zero'], outputs: ['z'] },
      { op: 'Add', inputs: ['C', 'z'], outputs: ['output0'] },
    ],
    ...(metadata ? { metadata } : {}),
  });
}
