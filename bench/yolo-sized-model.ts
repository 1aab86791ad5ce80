/**
 * A detector of YOLOv8n's size and shape with random weights, written from JavaScript: 640×640
 * input, a strided conv backbone to 80², 40² and 20² maps, a head per scale concatenated into
 * [1, 84, 8400] (4 box values + 80 class scores, Sigmoid). About 3.4 G multiply-adds (YOLOv8n:
 * 4.4 G) and 2.6 M weights (3.2 M). Class biases are low so that, like a trained model on a
 * photo, only a few boxes pass the score floor; the figure is the runtime's, not the weights'.
 */
import { onnxModel, type NodeSpec, type TensorSpec } from '../test/support/onnx-writer.js';
import { seededRandom } from './seeded-random.js';

export function yoloSizedModel(): Uint8Array {
  const random = seededRandom(27);
  const nodes: NodeSpec[] = [];
  const inits: TensorSpec[] = [];
  let n = 0;
  const conv = (
    x: string,
    cin: number,
    cout: number,
    k: number,
    stride: number,
    bias?: number[],
  ) => {
    const id = `c${n++}`;
    const scale = Math.sqrt(2 / (cin * k * k));
    inits.push({
      name: `${id}.w`,
      dims: [cout, cin, k, k],
      values: Float32Array.from({ length: cout * cin * k * k }, () => (random() * 2 - 1) * scale),
    });
    inits.push({ name: `${id}.b`, dims: [cout], values: bias ?? new Float32Array(cout) });
    const pad = Math.floor(k / 2);
    nodes.push({
      op: 'Conv',
      inputs: [x, `${id}.w`, `${id}.b`],
      outputs: [`${id}.y`],
      attributes: [
        { name: 'kernel_shape', ints: [k, k] },
        { name: 'strides', ints: [stride, stride] },
        { name: 'pads', ints: [pad, pad, pad, pad] },
      ],
    });
    return `${id}.y`;
  };
  const relu = (x: string) => {
    nodes.push({ op: 'Relu', inputs: [x], outputs: [`${x}.r`] });
    return `${x}.r`;
  };
  const block = (x: string, cin: number, cout: number, stride = 1) =>
    relu(conv(x, cin, cout, 3, stride));
  let x = block('images', 3, 16, 2); // 320²
  x = block(x, 16, 32, 2); // 160²
  x = block(block(x, 32, 32), 32, 32);
  x = block(x, 32, 64, 2); // 80²
  const p3 = block(block(block(x, 64, 64), 64, 64), 64, 64);
  const p4 = block(block(block(p3, 64, 128, 2), 128, 128), 128, 128); // 40²
  const p5 = block(block(block(p4, 128, 256, 2), 256, 256), 256, 256); // 20²
  const heads = [
    [p3, 64, 6400],
    [p4, 128, 1600],
    [p5, 256, 400],
  ] as const;
  const flat = heads.map(([p, c, cells], i) => {
    const h = block(p, c, c);
    // Box channels centred on the cell's scale, class scores mostly under the floor.
    const bias = [320, 320, 64, 64, ...new Array<number>(80).fill(-2.9)];
    const out = conv(h, c, 84, 1, 1, bias);
    inits.push({ name: `shape${i}`, dims: [3], values: [1, 84, cells], int64: true });
    nodes.push({ op: 'Reshape', inputs: [out, `shape${i}`], outputs: [`flat${i}`] });
    return `flat${i}`;
  });
  nodes.push({
    op: 'Concat',
    inputs: flat,
    outputs: ['cat'],
    attributes: [{ name: 'axis', int: 2 }],
  });
  // Sigmoid on the class rows only: the box rows stay in pixels, as an Ultralytics export.
  inits.push({ name: 'split', dims: [2], values: [4, 80], int64: true });
  nodes.push({
    op: 'Split',
    inputs: ['cat', 'split'],
    outputs: ['boxes', 'logits'],
    attributes: [{ name: 'axis', int: 1 }],
  });
  nodes.push({ op: 'Sigmoid', inputs: ['logits'], outputs: ['scores'] });
  nodes.push({
    op: 'Concat',
    inputs: ['boxes', 'scores'],
    outputs: ['output0'],
    attributes: [{ name: 'axis', int: 1 }],
  });
  return onnxModel({
    input: { name: 'images', dims: [1, 3, 640, 640] },
    output: { name: 'output0', dims: [1, 84, 8400] },
    nodes,
    initializers: inits,
    metadata: { imgsz: '[640, 640]', description: 'YOLOv8n-sized model with random weights' },
  });
}
