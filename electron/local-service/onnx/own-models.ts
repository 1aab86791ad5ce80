/**
 * Own ONNX models on disk (issue 27 §2): `<service data>/models/<id>/` holds the model file, any
 * external-data files it names, and `card.json`, the model card the catalog publishes. The service
 * reads the folder when it starts; `labeldesk models add|list|remove` changes it.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { SolutionSpec } from '../solutions.js';
import { ONNX_TYPES, OWN_MODEL_SCORE_FLOOR } from './onnx-types.js';

export const OwnModelCard = z.object({
  id: z.string(),
  /** The file's name when it was added. */
  source: z.string(),
  file: z.string(),
  bytes: z.number().int(),
  type: z.enum(ONNX_TYPES),
  /** 'declared' (--type) or the sentence saying why the type was assumed. */
  typeFrom: z.string(),
  input: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  inputFrom: z.enum(['metadata', 'model input', 'default']),
  classes: z.array(z.string()),
  namesFrom: z.enum(['metadata', 'names file', 'class numbers']),
  frameCost: z.object({ image: z.number().int().min(1), videoFrame: z.number().int().min(1) }),
  externalData: z.array(z.string()),
  addedAt: z.string(),
});
export type OwnModelCard = z.infer<typeof OwnModelCard>;

export const CARD_FILE = 'card.json';
export const modelsDir = (serviceDataDir: string) => join(serviceDataDir, 'models');

export class OwnModelError extends Error {
  override readonly name = 'OwnModelError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Every model card in the folder; a card that cannot be read is reported and left out. */
export function listOwnModels(
  serviceDataDir: string,
  log?: (line: string) => void,
): OwnModelCard[] {
  const dir = modelsDir(serviceDataDir);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const cards: OwnModelCard[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue; // An add in progress.
    try {
      const card = OwnModelCard.parse(JSON.parse(readFileSync(join(dir, name, CARD_FILE), 'utf8')));
      if (card.id === name) cards.push(card);
    } catch (err) {
      log?.(`own model ${name}: its card cannot be read (${String(err)}); left out`);
    }
  }
  return cards;
}

export function removeOwnModel(serviceDataDir: string, id: string): void {
  const found = listOwnModels(serviceDataDir).some((c) => c.id === id);
  if (!found) throw new OwnModelError('unknown_model', `No own model "${id}" here.`);
  rmSync(join(modelsDir(serviceDataDir), id), { recursive: true, force: true });
}

/** The solution the catalog publishes for a model, and what the workers need to run it. */
export function ownSolution(serviceDataDir: string, card: OwnModelCard): SolutionSpec {
  return {
    id: card.id,
    name: card.id,
    description: `Own ${card.type} model ${card.source} (ONNX, ${card.input.width}×${card.input.height}).`,
    media: ['image', 'video'],
    classes: card.classes,
    frameCost: card.frameCost,
    scoreFloor: OWN_MODEL_SCORE_FLOOR,
    model: card.source,
    own: {
      file: join(modelsDir(serviceDataDir), card.id, card.file),
      type: card.type,
      input: card.input,
      classes: card.classes,
    },
    card: {
      file: card.source,
      bytes: card.bytes,
      input: card.input,
      type: card.type,
      typeFrom: card.typeFrom,
      namesFrom: card.namesFrom,
      runtime: 'onnxruntime-node (CPU)',
    },
  };
}
