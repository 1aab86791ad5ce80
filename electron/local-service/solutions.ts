/** The solutions the embedded service offers: one entry each, published through the catalog. */
import { COCO_CLASSES } from './engine/coco-classes.js';
import type { OwnModelRun } from './onnx/onnx-session.js';
import {
  BLAZEFACE_SCORE_FLOOR,
  CENTERNET_SCORE_FLOOR,
  HANDTRACK_SCORE_FLOOR,
  MOVENET_SCORE_FLOOR,
} from './engine/score-floors.js';

export type MediaKind = 'image' | 'video';

export interface SolutionSpec {
  id: string;
  name: string;
  description: string;
  media: MediaKind[];
  classes: readonly string[];
  frameCost: { image: number; videoFrame: number };
  /** The lowest score the service answers; clients filter above it (published in the catalog). */
  scoreFloor: number;
  /** Model file stem inside @vladmandic/human's models folder (own models: the file's name). */
  model: string;
  /** An own ONNX model (onnx/own-models.ts): what the workers run. */
  own?: OwnModelRun;
  /** An own model's card, published in the catalog. */
  card?: {
    file: string;
    bytes: number;
    input: { width: number; height: number };
    type: string;
    typeFrom: string;
    namesFrom: string;
    runtime: string;
  };
}

export const SOLUTIONS: readonly SolutionSpec[] = [
  {
    id: 'objects',
    name: 'General objects',
    description: 'The 80 COCO object classes (people, vehicles, animals, household items).',
    media: ['image', 'video'],
    classes: COCO_CLASSES,
    frameCost: { image: 4, videoFrame: 2 },
    scoreFloor: CENTERNET_SCORE_FLOOR,
    model: 'centernet',
  },
  {
    id: 'face',
    name: 'Faces',
    description: 'Human faces, front and near-profile.',
    media: ['image', 'video'],
    classes: ['face'],
    frameCost: { image: 1, videoFrame: 1 },
    scoreFloor: BLAZEFACE_SCORE_FLOOR,
    model: 'blazeface',
  },
  {
    id: 'hand',
    name: 'Hands',
    description: 'Human hands, open or closed.',
    media: ['image', 'video'],
    classes: ['hand'],
    frameCost: { image: 2, videoFrame: 1 },
    scoreFloor: HANDTRACK_SCORE_FLOOR,
    model: 'handtrack',
  },
  {
    id: 'body',
    name: 'Body (single person)',
    description: 'The most prominent person, boxed from their pose keypoints.',
    media: ['image', 'video'],
    classes: ['person'],
    frameCost: { image: 3, videoFrame: 1 },
    scoreFloor: MOVENET_SCORE_FLOOR,
    model: 'movenet-lightning',
  },
];

export function findSolution(id: string): SolutionSpec | undefined {
  return SOLUTIONS.find((s) => s.id === id);
}
