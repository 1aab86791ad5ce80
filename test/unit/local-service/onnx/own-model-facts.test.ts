/** Issue 27 §2: class names and layouts read from what an own ONNX model says about itself. */
import { describe, expect, it } from 'vitest';
import {
  namesFromFile,
  namesFromMetadata,
} from '../../../../electron/local-service/onnx/class-names.js';
import { inferType } from '../../../../electron/local-service/onnx/onnx-types.js';
import { readOnnxFacts } from '../../../../electron/local-service/onnx/proto-reader.js';
import { constantDetector } from '../../../support/onnx-writer.js';

describe('class names', () => {
  it('reads Ultralytics metadata, quotes and escapes included; a gap is not a class list', () => {
    expect(namesFromMetadata(`{0: 'person', 1: "traffic light", 2: 'o\\'clock'}`)).toEqual([
      'person',
      'traffic light',
      "o'clock",
    ]);
    expect(namesFromMetadata("{0: 'a', 2: 'c'}")).toBeUndefined();
    expect(namesFromMetadata(undefined)).toBeUndefined();
  });

  it('reads a YAML list, a YAML map, a data YAML and a text list', () => {
    expect(namesFromFile('- cat\n- dog\n')).toEqual(['cat', 'dog']);
    expect(namesFromFile('0: cat\n1: dog\n')).toEqual(['cat', 'dog']);
    expect(namesFromFile('path: x\nnames: [cat, dog]\n')).toEqual(['cat', 'dog']);
    expect(namesFromFile('# classes\ncat\n\nsea lion\n')).toEqual(['cat', 'sea lion']);
    expect(() => namesFromFile('\n# nothing\n')).toThrow('the names file lists no class');
  });
});

describe('layout from the output shape', () => {
  const at640 = { width: 640, height: 640 };
  it.each([
    [[1, 84, 8400], 'yolov8'],
    [[1, 25200, 85], 'yolov5'],
    [[1, 8400, 85], 'yolox'],
    [[1, 300, 84], 'rtdetr'],
    [[1, 300, 6], 'end2end'],
  ] as const)('%j is %s', (dims, type) => {
    expect(inferType(dims, at640, '')?.type).toBe(type);
  });

  it('an RT-DETR named in the metadata wins over the six-column guess; a lone vector is unknown', () => {
    expect(inferType([1, 300, 6], at640, 'Ultralytics RT-DETR-l')?.type).toBe('rtdetr');
    expect(inferType([1, 1000], at640, '')).toBeUndefined();
  });
});

describe('reading the file before any runtime', () => {
  it('finds metadata and external-data locations', () => {
    const model = constantDetector(
      { width: 8, height: 8 },
      [1, 6, 2],
      new Array(12).fill(0),
      {
        imgsz: '[8, 8]',
      },
      'weights/c.bin',
    );
    expect(readOnnxFacts(model)).toEqual({
      metadata: { imgsz: '[8, 8]' },
      externalLocations: ['weights/c.bin'],
      opset: 13,
    });
  });

  it('refuses bytes that are not a model', () => {
    expect(() => readOnnxFacts(Buffer.from('plain text, no graph'))).toThrow();
  });
});
