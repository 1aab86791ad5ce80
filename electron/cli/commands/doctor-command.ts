/** `labeldesk doctor`: what LabelDesk understood of the service (the use case is check-service.ts). */
import type { Command } from 'commander';
import { lockLibrary, openAppContext, type LibraryLock } from '../../application/app-context.js';
import { checkService, connectionTarget } from '../../application/check-service.js';
import { connectService } from '../../application/service-connection.js';
import type { CheckReport } from '../../shared/contract/index.js';
import { EXIT } from '../run-summary.js';
import { terminalText } from '../terminal-text.js';

interface DoctorOptions {
  service?: string;
  spend?: string;
  solution?: string;
  json?: boolean;
}

export function addDoctorCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('doctor')
    .description(
      'Say what LabelDesk understood of the service: catalog, health and GET /key (nothing spent), or with --spend, one file sent.',
    )
    .option('--service <url>', 'a hosted service (default: the embedded one)')
    .option(
      '--spend <file>',
      'send this one image or clip (spends its frames) and report its answer',
    )
    .option(
      '--solution <id>',
      'solution for --spend (default: objects, or the first that takes it)',
    )
    .option('--json', 'print JSON')
    .action(async (opts: DoctorOptions) => {
      setExit(await doctor(opts));
    });
}

async function doctor(opts: DoctorOptions): Promise<number> {
  const app = openAppContext();
  let lock: LibraryLock | undefined;
  try {
    // Spending writes the cost and the ledger, and the embedded service analyses only for the
    // holder of the library's lock (as `label` does); reading alone needs neither.
    if (opts.spend) lock = await lockLibrary(app, 'labeldesk doctor');
    const conn = await connectService(app, {
      ...(opts.service ? { service: opts.service } : {}),
      analysis: opts.spend !== undefined,
      waitForModels: opts.spend !== undefined,
      keyOptional: true,
    });
    try {
      const report = await checkService(
        connectionTarget(app.store, conn, opts.service ?? `the embedded service (${conn.baseUrl})`),
        {
          ...(opts.spend ? { spendFile: opts.spend } : {}),
          ...(opts.solution ? { solution: opts.solution } : {}),
        },
      );
      process.stdout.write(opts.json ? `${JSON.stringify(jsonOf(report))}\n` : reportText(report));
      return report.ok ? EXIT.ok : EXIT.notUnderstood;
    } finally {
      await conn.close();
    }
  } finally {
    lock?.release();
    app.close();
  }
}

/** The JSON leaves out the preview image (a data URL): scripts want the words and the boxes. */
function jsonOf(report: CheckReport) {
  return { ...report, spend: report.spend ? { ...report.spend, preview: undefined } : null };
}

function reportText(report: CheckReport): string {
  const lines = [`Service: ${report.service}`];
  for (const p of report.parts) lines.push(`  ${p.part}: ${p.text}`);
  lines.push(
    `  answers kept raw: ${report.keptAnswers === 0 ? 'none' : `${report.keptAnswers} paid answers not understood, kept to be read again`}`,
  );
  if (report.spend) {
    const s = report.spend;
    lines.push(
      `Sent ${s.file} (${s.solution}): ${s.spent ?? '?'} frames; ${s.cost}`,
      ...s.detectionForm.map((f) => `  detections: ${f}`),
    );
  }
  lines.push(
    report.ok
      ? 'Everything LabelDesk needs is understood.'
      : 'Not everything LabelDesk needs is understood (see "not understood" above).',
  );
  return `${lines.map(terminalText).join('\n')}\n`;
}
