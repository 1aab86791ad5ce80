/** Loads @vladmandic/human's TF.js graph models straight from disk: no fetch, no network. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as tf from '@tensorflow/tfjs-core';
import { GraphModel } from '@tensorflow/tfjs-converter';

const require = createRequire(import.meta.url);

export function humanModelsDir(): string {
  // The package's `exports` hide package.json; its main entry lives in dist/, beside models/.
  return path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'models');
}

interface ModelJson {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
  userDefinedMetadata?: Record<string, object>;
}

/** An IOHandler that reads `<name>.json` and its weight shards from a directory. */
function diskHandler(jsonPath: string): tf.io.IOHandler {
  return {
    load: async () => {
      const json = JSON.parse(await readFile(jsonPath, 'utf8')) as ModelJson;
      const dir = path.dirname(jsonPath);
      const specs: tf.io.WeightsManifestEntry[] = [];
      const shards: Buffer[] = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const shard of group.paths) shards.push(await readFile(path.join(dir, shard)));
      }
      const all = Buffer.concat(shards);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: specs,
        weightData,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy ?? null,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
      };
    },
  };
}

export async function loadHumanModel(name: string, dir = humanModelsDir()): Promise<GraphModel> {
  const model = new GraphModel(diskHandler(path.join(dir, `${name}.json`)));
  await model.load();
  return model;
}
