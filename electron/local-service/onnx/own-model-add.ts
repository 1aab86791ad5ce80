/**
 * `labeldesk models add`: checks an untrusted ONNX file before the service ever serves it — its
 * size, that it parses, that its external data stays in its folder, that onnxruntime loads and
 * runs it, and that its output fits the declared (or inferred) layout — then copies it into the
 * service's models folder with its card.
 */
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { SOLUTIONS } from '../solutions.js';
import {
  namesFromFile,
  namesFromMetadata,
  numberedClasses,
  type NamesFrom,
} from './class-names.js';
import { openModel, runRaw } from './onnx-session.js';
import { classesInOutput, inferType, ONNX_TYPES, type OnnxType } from './onnx-types.js';
import {
  CARD_FILE,
  listOwnModels,
  modelsDir,
  OwnModelError,
  type OwnModelCard,
} from './own-models.js';
import { ProtoError, readOnnxFacts } from './proto-reader.js';

/** Far above a YOLO11x (about 220 MB); protobuf itself stops at 2 GiB. */
export const MAX_MODEL_BYTES = 1024 * 1024 * 1024;
const ID_SHAPE = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const DEFAULT_INPUT = 640;

export interface AddOptions {
  type?: string | undefined;
  namesFile?: string | undefined;
  id?: string | undefined;
  frameCost?: number | undefined;
  /** How the surface asking says no type was chosen: the CLI's option, the screen's "Layout". */
  noTypeWords?: string | undefined;
  now?: () => Date;
}

export interface Added {
  card: OwnModelCard;
  /** What was assumed, said back to the person. */
  notes: string[];
}

const fail = (code: string, sentence: string): never => {
  throw new OwnModelError(code, sentence);
};

/** A location in the model's own folder: a relative name, no `..`, no absolute path. */
function insideFolder(location: string): boolean {
  const n = normalize(location);
  return location !== '' && !isAbsolute(location) && !n.startsWith('..') && !n.includes(`..${sep}`);
}

function parseImgsz(value: string | undefined): { width: number; height: number } | undefined {
  const nums = (value ?? '').match(/\d+/g)?.map(Number) ?? [];
  const [h, w = h] = nums;
  if (h === undefined || w === undefined || !(h >= 32 && h <= 4096 && w >= 32 && w <= 4096))
    return undefined;
  return { width: w, height: h };
}

function idFor(file: string, asked: string | undefined): string {
  const id =
    asked ??
    basename(file)
      .replace(/\.onnx$/i, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '');
  if (!ID_SHAPE.test(id))
    fail('bad_model_id', `"${id}" cannot be a model id: use a-z, 0-9, ".", "_" or "-" (--id).`);
  if (SOLUTIONS.some((s) => s.id === id))
    fail('model_id_taken', `"${id}" is a built-in solution; choose another --id.`);
  return id;
}

export async function addOwnModel(
  serviceDataDir: string,
  file: string,
  options: AddOptions = {},
): Promise<Added> {
  const notes: string[] = [];
  const declared = options.type;
  if (declared !== undefined && !(ONNX_TYPES as readonly string[]).includes(declared))
    fail('bad_model_type', `--type takes one of ${ONNX_TYPES.join(', ')}; not "${declared}".`);
  const id = idFor(file, options.id);
  if (listOwnModels(serviceDataDir).some((c) => c.id === id))
    fail('model_id_taken', `A model "${id}" is already added; remove it first or choose --id.`);

  const info = await stat(file).catch(() => fail('model_not_found', `${file} cannot be read.`));
  if (!info.isFile()) fail('model_not_found', `${file} is not a file.`);
  if (info.size > MAX_MODEL_BYTES)
    fail(
      'model_too_large',
      `${file} is ${info.size} bytes; models up to ${MAX_MODEL_BYTES} are taken.`,
    );
  const bytes = await readFile(file);
  let facts;
  try {
    facts = readOnnxFacts(bytes);
  } catch (err) {
    if (!(err instanceof ProtoError)) throw err;
    return fail('not_onnx', `${basename(file)} is not an ONNX model: ${err.message}.`);
  }
  const outside = facts.externalLocations.find((l) => !insideFolder(l));
  if (outside !== undefined)
    fail(
      'external_data_outside',
      `${basename(file)} names external data outside its folder ("${outside}"); refused.`,
    );
  const external = [...new Set(facts.externalLocations.map((l) => normalize(l)))];
  for (const l of external) {
    const s = await stat(join(dirname(file), l)).catch(() => undefined);
    if (!s?.isFile()) fail('external_data_missing', `${basename(file)} needs ${l} beside it.`);
  }

  const model = await openModel(file).catch((err: unknown) =>
    fail('model_unloadable', `${basename(file)}: ${(err as Error).message}`),
  );
  try {
    const fromMeta = parseImgsz(facts.metadata['imgsz']);
    const meta = model.session.inputMetadata[0];
    const shape = meta?.isTensor ? meta.shape : [];
    const [, , h, w] = shape;
    const fromInput =
      typeof h === 'number' && typeof w === 'number' && h > 0 && w > 0
        ? { width: w, height: h }
        : undefined;
    const input = fromMeta ?? fromInput ?? { width: DEFAULT_INPUT, height: DEFAULT_INPUT };
    const inputFrom = fromMeta ? 'metadata' : fromInput ? 'model input' : 'default';
    if (inputFrom === 'default')
      notes.push(`Input size not stated; assumed ${DEFAULT_INPUT}×${DEFAULT_INPUT}.`);

    const probe = new Float32Array(3 * input.width * input.height).fill(114 / 255);
    const out = await runRaw(model, probe, input).catch((err: unknown) =>
      fail('model_unrunnable', `${basename(file)}: ${(err as Error).message}`),
    );
    let type: OnnxType;
    let typeFrom = 'declared';
    if (declared !== undefined) type = declared as OnnxType;
    else {
      const hint = `${facts.metadata['description'] ?? ''} ${basename(file)}`;
      const inferred = inferType(out.dims, input, hint);
      if (!inferred)
        return fail(
          'model_type_unknown',
          `The output [${out.dims.join(', ')}] fits no layout LabelDesk knows; name one with --type (${ONNX_TYPES.join(', ')}).`,
        );
      type = inferred.type;
      typeFrom = `assumed ${type}: ${inferred.why}`;
      notes.push(`${options.noTypeWords ?? 'No --type given'}; ${typeFrom}.`);
    }
    const count = classesInOutput(type, out.dims);
    if (typeof count === 'string')
      fail('model_type_mismatch', `${basename(file)} cannot be a ${type} model: ${count}.`);

    let classes = namesFromMetadata(facts.metadata['names']);
    let namesFrom: NamesFrom = 'metadata';
    if (!classes && options.namesFile) {
      const text = await readFile(options.namesFile, 'utf8').catch(() =>
        fail('names_unreadable', `${options.namesFile} cannot be read.`),
      );
      try {
        classes = namesFromFile(text);
      } catch (err) {
        fail('bad_names', `${options.namesFile}: ${(err as Error).message}.`);
      }
      namesFrom = 'names file';
    } else if (classes && options.namesFile) {
      notes.push('The model names its classes itself; --names was not used.');
    }
    if (!classes) {
      classes = numberedClasses(count as number);
      namesFrom = 'class numbers';
      if (count !== 0)
        notes.push(
          `No class names in the model nor --names: called "class 0"…"class ${(count as number) - 1}".`,
        );
    }
    if (count !== 0 && classes.length !== count)
      fail(
        'names_mismatch',
        `The model has ${count as number} classes but its names list ${classes.length}.`,
      );

    const cost = options.frameCost ?? 1;
    const card: OwnModelCard = {
      id,
      source: basename(file),
      file: 'model.onnx',
      bytes: info.size,
      type,
      typeFrom,
      input,
      inputFrom,
      classes,
      namesFrom,
      frameCost: { image: cost, videoFrame: cost },
      externalData: external,
      addedAt: (options.now?.() ?? new Date()).toISOString(),
    };
    await install(serviceDataDir, file, card);
    return { card, notes };
  } finally {
    await model.session.release();
  }
}

/** Copies into a hidden folder, then renames: a half-copied model is never listed. */
async function install(serviceDataDir: string, file: string, card: OwnModelCard): Promise<void> {
  const root = modelsDir(serviceDataDir);
  const temp = join(root, `.adding-${card.id}-${process.pid}`);
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  try {
    await copyFile(file, join(temp, card.file));
    for (const l of card.externalData) {
      await mkdir(dirname(join(temp, l)), { recursive: true });
      await copyFile(join(dirname(file), l), join(temp, l));
    }
    await writeFile(join(temp, CARD_FILE), `${JSON.stringify(card, null, 2)}\n`);
    await rename(temp, join(root, card.id));
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
}
