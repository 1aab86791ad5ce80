/** The export formats and the target check, without the writers (a run checks before it spends). */
export {
  checkExportTarget,
  EXPORT_FORMATS,
  ExportTargetError,
} from '../core/export/export-target.js';
export type { ExportFormat } from '../core/export/export-model.js';
