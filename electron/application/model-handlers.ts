/**
 * The Service screen's Models section (issue 27 §2): own ONNX models of the embedded service. The
 * service reads its models when it starts, so adding or removing one restarts it (when it is the
 * service in use) and the catalog shows the change at once.
 */
import { isAbsolute } from 'node:path';
import { listOwnModels, OwnModelError, removeOwnModel } from '../local-service/onnx/own-models.js';
import { LabelDeskError, type Handlers } from '../shared/contract/index.js';
import { serviceDataDir } from './own-models.js';

type ModelHandlers = Pick<Handlers, 'models.list' | 'models.add' | 'models.remove'>;

async function said<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof OwnModelError) throw new LabelDeskError(err.code, err.message);
    throw err;
  }
}

export function modelHandlers(
  workHome: string,
  restartEmbedded: () => Promise<unknown>,
  runBusy: () => boolean,
): ModelHandlers {
  const dir = serviceDataDir(workHome);
  // The restart would cut a run's calls short: a change waits until the run ends or is paused.
  const notWhileRunning = () => {
    if (runBusy()) {
      throw new LabelDeskError(
        'run_in_progress',
        'A run is using the embedded service: add or remove models once it has finished or is paused.',
      );
    }
  };
  return {
    'models.list': () => listOwnModels(dir),
    'models.add': async ({ file, type, namesFile, id, frameCost }) => {
      notWhileRunning();
      if (!isAbsolute(file) || (namesFile !== undefined && !isAbsolute(namesFile))) {
        throw new LabelDeskError(
          'bad_path',
          'Give the model file (and names file) as absolute paths.',
        );
      }
      // The Service screen's field is "Layout" ("From its output"), not the CLI's --type.
      const options = { type, namesFile, id, frameCost, noTypeWords: 'No layout chosen' };
      // Loaded on first use: onnxruntime, tfjs and yaml cost the app's start ~0.3 s otherwise.
      const { addOwnModel } = await import('../local-service/onnx/own-model-add.js');
      const added = await said(() => addOwnModel(dir, file, options));
      await restartEmbedded();
      return { model: added.card, notes: added.notes };
    },
    'models.remove': async ({ id }) => {
      notWhileRunning();
      await said(() => removeOwnModel(dir, id));
      await restartEmbedded();
      return { ok: true as const };
    },
  };
}
