/**
 * `labeldesk models add|list|remove` (issue 27 §2): own ONNX detectors in the embedded service.
 * The service reads its models folder when it starts: a running app or `serve` picks a change up
 * on its next start.
 */
import type { Command } from 'commander';
import { labeldeskHome } from '../../node-lib/app-paths.js';
import {
  addModel,
  listModels,
  ONNX_TYPES,
  removeModel,
  serviceDataDir,
  type OwnModelCard,
} from '../../application/own-models.js';
import { UsageError } from '../../application/usage-error.js';
import { terminalText } from '../terminal-text.js';

const print = (line: string): void => void process.stdout.write(`${terminalText(line)}\n`);
const serviceDir = (data: string | undefined) => data ?? serviceDataDir(labeldeskHome());

function parseCost(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new UsageError('--frame-cost takes a whole number of frames from 1 to 1000.');
  return n;
}

function cardLine(c: OwnModelCard): string {
  const names =
    c.classes.length > 0 ? `${c.classes.length} classes (${c.namesFrom})` : 'classes by number';
  return `${c.id}  ${c.type}  ${c.input.width}×${c.input.height}  ${names}  ${c.frameCost.image} frame(s)  ${c.source}, ${c.bytes} bytes`;
}

export function addModelsCommand(program: Command): void {
  const models = program
    .command('models')
    .description('Own ONNX detectors served by the embedded service beside its built-in models.')
    .option(
      '--data <dir>',
      'the embedded service’s state folder (default: LABELDESK_HOME/service)',
    );
  const dataOf = () => serviceDir(models.opts<{ data?: string }>().data);

  models
    .command('add')
    .argument('<file>', 'an ONNX detector (YOLOv5/v8/11, YOLOX, RT-DETR or end-to-end export)')
    .option(
      '--type <type>',
      `its layout: ${ONNX_TYPES.join(', ')} (default: inferred from its output)`,
    )
    .option(
      '--names <file>',
      'class names when the model has none: a YAML list or map, or one name a line',
    )
    .option('--id <id>', 'the solution id (default: from the file name)')
    .option('--frame-cost <n>', 'frames one image or one clip frame costs (default 1)', parseCost)
    .option('--json', 'print the model card as JSON')
    .action(
      async (
        file: string,
        opts: { type?: string; names?: string; id?: string; frameCost?: number; json?: boolean },
      ) => {
        const { card, notes } = await addModel(dataOf(), file, {
          type: opts.type,
          namesFile: opts.names,
          id: opts.id,
          frameCost: opts.frameCost,
        });
        if (opts.json) return print(JSON.stringify({ card, notes }));
        for (const note of notes) print(note);
        print(`Added ${cardLine(card)}`);
        print('The embedded service serves it from its next start.');
      },
    );

  models
    .command('list')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const cards = listModels(dataOf());
      if (opts.json) return print(JSON.stringify(cards));
      if (cards.length === 0) return print('No own models (labeldesk models add FILE.onnx).');
      for (const c of cards) print(cardLine(c));
    });

  models
    .command('remove')
    .argument('<id>', 'the model’s id (see models list)')
    .action(async (id: string) => {
      await removeModel(dataOf(), id);
      print(`Removed ${id}; the embedded service stops serving it from its next start.`);
    });
}
