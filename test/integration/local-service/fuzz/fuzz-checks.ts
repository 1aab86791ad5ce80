/** What every answer of the fuzzed service must satisfy, and the tally printed at the end. */
import type { FuzzCase } from './fuzz-cases.js';
import type { Exchange, RawAnswer } from './raw-exchange.js';

/** Why a case's exchange breaks the service's promises, or undefined when it keeps them. */
export function violation(c: FuzzCase, x: Exchange): string | undefined {
  if (x.timedOut) return `no complete answer within the time bound (${x.ms} ms)`;
  const finals = x.answers.filter((a) => a.status >= 200);
  const last = finals.at(-1);
  const closedAfterAnswer =
    last !== undefined && x.closed && last.headers['connection'] === 'close';
  if (finals.length < c.requests && !closedAfterAnswer) {
    return `${finals.length} answer(s) to ${c.requests} request(s); leftover ${JSON.stringify(x.leftover)}${x.error ? `, socket ${x.error}` : ''}`;
  }
  if (x.leftover.length > 0)
    return `garbled bytes after the answers: ${JSON.stringify(x.leftover)}`;
  for (const a of finals) {
    const bad = badAnswer(a, c.head === true);
    if (bad) return bad;
  }
  return undefined;
}

function badAnswer(a: RawAnswer, head: boolean): string | undefined {
  if (a.status === 500)
    return `500 (an unexpected failure inside the service): ${a.body.toString()}`;
  if (a.status < 300 || head) return undefined;
  if (a.body.length === 0) return `${a.status} without a body`;
  if (!(a.headers['content-type'] ?? '').startsWith('application/json'))
    return `${a.status} with content-type ${a.headers['content-type']}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.body.toString('utf8'));
  } catch {
    return `${a.status} whose body is not JSON: ${a.body.subarray(0, 200).toString()}`;
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } }).error;
  const keys = parsed && typeof parsed === 'object' ? Object.keys(parsed) : [];
  if (
    keys.length !== 1 ||
    typeof error?.code !== 'string' ||
    !/^[a-z][a-z0-9_]*$/.test(error.code) ||
    typeof error.message !== 'string' ||
    error.message.length === 0
  ) {
    return `${a.status} body is not {"error":{"code","message"}}: ${a.body.subarray(0, 200).toString()}`;
  }
  return undefined;
}

export class Tally {
  cases = 0;
  answers = 0;
  closedByServer = 0;
  readonly byStatus = new Map<number, number>();
  readonly byCode = new Map<string, number>();

  add(x: Exchange): void {
    this.cases++;
    if (x.closed) this.closedByServer++;
    for (const a of x.answers) {
      this.answers++;
      this.byStatus.set(a.status, (this.byStatus.get(a.status) ?? 0) + 1);
      if (a.status >= 400) {
        const code = /"code":"([a-z0-9_]+)"/.exec(a.body.toString())?.[1] ?? '(no body)';
        this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
      }
    }
  }

  summary(seed: number, ms: number): string {
    const statuses = [...this.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    const codes = [...this.byCode].sort(([, a], [, b]) => b - a).map(([c, n]) => `${c}×${n}`);
    return [
      `http fuzz: seed ${seed} (replay with FUZZ_SEED=${seed}); ${this.cases} cases, ${this.answers} answers in ${(ms / 1000).toFixed(1)} s; ${this.closedByServer} connections closed by the server`,
      `  statuses: ${statuses.join(' ')}`,
      `  error codes: ${codes.join(' ')}`,
    ].join('\n');
  }
}

/** A case as a failure message shows it: enough to read what was sent and to replay it. */
export function describeCase(seed: number, batch: number, index: number, c: FuzzCase): string {
  const preview = c.payload.subarray(0, 400).toString('latin1');
  return `seed ${seed} (FUZZ_SEED=${seed}), batch ${batch}, case ${index}: ${c.name}\n  ${c.payload.length} bytes, halfClose ${c.halfClose}: ${JSON.stringify(preview)}${c.payload.length > 400 ? '…' : ''}`;
}
