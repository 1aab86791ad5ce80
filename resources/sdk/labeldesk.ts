/**
 * LabelDesk client in TypeScript (ES module), version __LABELDESK_VERSION__, for Node.js >= 18
 * and browsers, talking to a LabelDesk detection service. Single file, no dependencies: fetch,
 * FormData and Blob only (Node's modules are loaded lazily, only to read a file by its path);
 * every response has an exported type. Type-checks under `tsc --strict` with @types/node; compile
 * it as ESM (a "type": "module" package, or .mts). The `node` and `browser` clients are compiled
 * from it.
 *
 * As a library:
 *   import LabelDeskClient from './labeldesk.js';
 *   const ld = new LabelDeskClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'ldk_...' });
 *   const { detections } = await ld.inferImage({ solution: 'objects', file: 'photo.jpg' });
 *   const sub = await ld.inferVideo({ solution: 'objects', file: 'clip.mp4' });
 *   const job = await ld.waitForJob(sub.jobId, { onProgress: (j) => console.log(j.progress) });
 *
 * As a command once compiled, `node labeldesk.js catalog` and the others of USAGE below
 * (BASE_URL and API_KEY from the environment; JSON on stdout).
 */
export const VERSION = '__LABELDESK_VERSION__';

/** Node, not a page: files can be read by path, and the client may name itself. */
const IN_NODE =
  typeof process !== 'undefined' &&
  typeof process.versions?.node === 'string' &&
  typeof (globalThis as { window?: unknown }).window === 'undefined';

export type SdkLang = 'curl' | 'python' | 'node' | 'ts' | 'browser';
export type EngineState = 'loading' | 'ready' | 'failed';
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type MediaKind = 'image' | 'video';
// Short types are one-line type aliases (Prettier keeps those as written; interfaces it opens).
export type Box = { x: number; y: number; w: number; h: number };
export interface Detection {
  label: string;
  classId: number;
  score: number;
  /** Normalised to 0–1: draw overlays with this. */
  bbox: Box;
  /** Pixels of the analysed resolution. */
  bboxPx: Box;
}
export type Credits = { spent: number; remaining: number; hourRemaining: number };
export interface Solution {
  id: string;
  name: string;
  description: string;
  media: MediaKind[];
  classes: string[];
  frameCost: { image: number; videoFrame: number };
}
export interface Limits {
  maxImageBytes: number;
  maxVideoBytes: number;
  maxVideoSeconds: number;
  imageFormats: string[];
  videoFormats: string[];
  maxConcurrentRequests: number;
  maxConcurrentJobs: number;
  maxQueuedJobs: number;
  hourFrames: number;
  sessionFrames: number;
  trialKeyFrames: number;
  videoSampleFps: number;
  pollIntervalMs: { min: number; max: number };
}
export interface Catalog {
  version: string;
  aiStatus: string;
  limits: Limits;
  sdk: { lang: SdkLang; path: string; filename: string }[];
  solutions: Solution[];
}
export interface Health {
  status: string;
  uptimeSec: number;
  enabled: boolean;
  ai: EngineState;
  solutions: Record<string, EngineState>;
}
export interface Session {
  token: string;
  credits: number;
  expiresAt: string;
  deviceFramesLeft: number;
  networkFramesLeft: number;
}
export interface KeyStatus {
  audience: 'api_key' | 'session' | 'trial_key';
  remaining: number;
  hourRemaining: number;
  expiresAt: string | null;
}
export type TrialKey = { key: string; frames: number; expiresAt: string; notice: string };
/** The resolution the model analysed: `bboxPx` is in these pixels. */
export type AnalysedSize = { analysedWidth: number; analysedHeight: number };
export interface ImageResult {
  detections: Detection[];
  image: { width: number; height: number; format: string } & AnalysedSize;
  stats: { model: string; inferenceMs: number; totalMs: number };
  credits: Credits;
}
export interface VideoSubmitted {
  jobId: string;
  status: JobStatus;
  queuePosition: number;
  pollUrl: string;
  pollIntervalMs: number;
  credits: Credits;
}
export interface VideoResult extends AnalysedSize {
  fps: number;
  sampledFps: number;
  durationMs: number;
  width: number;
  height: number;
  frames: { index: number; timeMs: number; detections: Detection[] }[];
}
export interface Job {
  jobId: string;
  status: JobStatus;
  /** 0–1. */
  progress: number;
  queuePosition: number;
  pollIntervalMs: number;
  result?: VideoResult;
  error?: { code: string; message: string };
}
export type CancelResult = { jobId: string; status: JobStatus };

/** A path (read from disk), a Blob/File, or bytes. */
export type Upload = string | Blob | ArrayBuffer | ArrayBufferView;
export interface InferOptions {
  solution: string;
  file: Upload;
  /** Names bytes or an unnamed Blob, so the content type can be told from the extension. */
  filename?: string | undefined;
  signal?: AbortSignal | undefined;
}
export interface WaitOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((job: Job) => void) | undefined;
}

const TERMINAL: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);
const DEFAULT_POLL_MS = 1000;
const mimeTypes = (kind: string, exts: string[]) => exts.map((ext) => [ext, `${kind}/${ext}`]);
// `jpg` first: an unnamed JPEG Blob is uploaded as `upload.jpg` (see uploadName).
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  ...Object.fromEntries(mimeTypes('image', ['jpeg', 'png', 'webp', 'gif', 'tiff', 'bmp', 'avif'])),
  ...Object.fromEntries(mimeTypes('video', ['mp4', 'webm'])),
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
};

/** Content type of an upload, from its file name's extension. */
export function contentTypeFor(name: string | undefined): string {
  const ext = /\.([^./\\]+)$/.exec(name ?? '')?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || 'application/octet-stream';
}

/** A non-2xx answer: `status`, `code` and `message` from `{"error":{code,message}}`. */
export class LabelDeskError extends Error {
  override readonly name = 'LabelDeskError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before retrying (from Retry-After, sent with 429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

interface CallOptions {
  auth?: boolean;
  json?: unknown;
  form?: FormData;
  text?: boolean;
  signal?: AbortSignal | undefined;
}

export default class LabelDeskClient {
  readonly baseUrl: string;
  apiKey: string | undefined;

  constructor({ baseUrl, apiKey }: { baseUrl: string; apiKey?: string | undefined }) {
    if (!baseUrl) throw new TypeError('LabelDeskClient: baseUrl is required');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.apiKey = apiKey;
  }

  // The endpoints, in the order of the service's interface.
  catalog(): Promise<Catalog> {
    return this.call('GET', '/catalog', { auth: false });
  }
  health(): Promise<Health> {
    return this.call('GET', '/healthz', { auth: false });
  }
  /** The source of the client for `lang`, as text. */
  sdk(lang: SdkLang): Promise<string> {
    return this.call('GET', `/sdk/${encodeURIComponent(lang)}`, { auth: false, text: true });
  }
  session(deviceId: string, turnstileToken?: string): Promise<Session> {
    const json = turnstileToken ? { deviceId, turnstileToken } : { deviceId };
    return this.call('POST', '/session', { auth: false, json });
  }
  key(): Promise<KeyStatus> {
    return this.call('GET', '/key');
  }
  /** Exchanges the browser session token this client holds for a trial SDK key. */
  sdkKey(): Promise<TrialKey> {
    return this.call('POST', '/sdk-key', { json: {} });
  }
  async inferImage({ solution, file, filename, signal }: InferOptions): Promise<ImageResult> {
    const form = await uploadForm(solution, file, filename);
    return this.call('POST', '/infer/image', { form, signal });
  }
  async inferVideo({ solution, file, filename, signal }: InferOptions): Promise<VideoSubmitted> {
    const form = await uploadForm(solution, file, filename);
    return this.call('POST', '/infer/video', { form, signal });
  }
  job(id: string, { signal }: { signal?: AbortSignal | undefined } = {}): Promise<Job> {
    return this.call('GET', `/jobs/${encodeURIComponent(id)}`, { signal });
  }
  cancel(id: string): Promise<CancelResult> {
    return this.call('DELETE', `/jobs/${encodeURIComponent(id)}`);
  }

  /** Polls until the job is succeeded, failed or cancelled, waiting pollIntervalMs each time. */
  async waitForJob(id: string, { signal, onProgress }: WaitOptions = {}): Promise<Job> {
    for (;;) {
      const job = await this.job(id, { signal });
      onProgress?.(job);
      if (TERMINAL.has(job.status)) return job;
      await sleep(pollDelay(job), signal);
    }
  }

  private async call<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
    const { auth = true, json, form, text = false, signal } = opts;
    // In a page, any header beyond authorization and content-type would widen CORS preflights.
    const headers: Record<string, string> = IN_NODE
      ? { 'user-agent': `labeldesk-js/${VERSION}` }
      : {};
    if (auth && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let body: FormData | string | null = form ?? null;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, signal: signal ?? null });
    const raw = await res.text();
    if (!res.ok) throw errorFrom(res, raw);
    return (text ? raw : JSON.parse(raw)) as T;
  }
}

function errorFrom(res: Response, raw: string): LabelDeskError {
  let error: { code?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(raw) as { error?: typeof error }).error;
  } catch {
    // Not our JSON (a proxy page, say): fall back to the status line.
  }
  // Retry-After is in seconds or an HTTP date.
  const header = res.headers.get('retry-after');
  const secs = header === null ? undefined : Number(header);
  const retryAfter =
    header === null || Number.isFinite(secs)
      ? secs
      : Math.max(0, (Date.parse(header) - Date.now()) / 1e3);
  const message = error?.message ?? (raw.slice(0, 200) || res.statusText);
  return new LabelDeskError(res.status, error?.code ?? 'http_error', message, retryAfter);
}

// The server validates the solution before reading the upload, so `solution` goes first.
async function uploadForm(solution: string, file: Upload, filename?: string): Promise<FormData> {
  const { blob, name } = await toBlob(file, filename);
  const form = new FormData();
  form.append('solution', solution);
  form.append('file', blob, name);
  return form;
}

async function toBlob(file: Upload, filename?: string): Promise<{ blob: Blob; name: string }> {
  if (typeof file === 'string') {
    if (!IN_NODE) throw new TypeError('in a browser, file must be a Blob/File or bytes');
    const fs = await import('node:fs');
    const type = contentTypeFor(filename ?? file);
    // openAsBlob (Node >= 19.8) streams from disk instead of holding the whole clip in memory.
    const blob: Blob =
      typeof fs.openAsBlob === 'function'
        ? await fs.openAsBlob(file, { type })
        : new Blob([await fs.promises.readFile(file)], { type });
    return { blob, name: filename ?? file.split(/[\\/]/).pop() ?? file };
  }
  if (file instanceof Blob) {
    const name = filename ?? (('name' in file && String(file.name)) || uploadName(file.type));
    let type = contentTypeFor(name);
    if (type === 'application/octet-stream' && file.type) type = file.type;
    return { blob: file.type === type ? file : file.slice(0, file.size, type), name };
  }
  const name = filename ?? 'upload';
  const bytes =
    file instanceof ArrayBuffer
      ? file
      : new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  return { blob: new Blob([bytes as BlobPart], { type: contentTypeFor(name) }), name };
}

/** A file name for an unnamed Blob, so the server sees a matching extension. */
function uploadName(type: string): string {
  const ext = Object.keys(TYPES).find((k) => TYPES[k] === type);
  return ext ? `upload.${ext}` : 'upload';
}

function pollDelay(job: { pollIntervalMs?: number }): number {
  const ms = job.pollIntervalMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_POLL_MS;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const USAGE = `usage: labeldesk <command> [args]   (env: BASE_URL, API_KEY, TURNSTILE_TOKEN)
  catalog | health | key | sdk-key | session DEVICE_ID
  image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID`;

async function main(argv: string[]): Promise<void> {
  const [cmd = '', a = '', b = ''] = argv;
  const arity =
    ({ session: 1, image: 2, video: 2, job: 1, cancel: 1 } as Record<string, number>)[cmd] ?? 0;
  if (!cmd || [a, b].slice(0, arity).some((x) => !x)) return usage();
  const baseUrl = process.env.BASE_URL;
  if (!baseUrl) return usage('BASE_URL is not set');
  const ld = new LabelDeskClient({ baseUrl, apiKey: process.env.API_KEY });
  const commands: Record<string, () => Promise<unknown>> = {
    catalog: () => ld.catalog(),
    health: () => ld.health(),
    key: () => ld.key(),
    'sdk-key': () => ld.sdkKey(),
    session: () => ld.session(a, process.env.TURNSTILE_TOKEN),
    image: () => ld.inferImage({ file: a, solution: b }),
    video: async () => {
      const submitted = await ld.inferVideo({ file: a, solution: b });
      await sleep(pollDelay(submitted));
      const job = await ld.waitForJob(submitted.jobId);
      if (job.status !== 'succeeded') {
        console.error(`labeldesk: job ${job.jobId} ended ${job.status}`);
        process.exitCode = 1;
      }
      return job;
    },
    job: () => ld.job(a),
    cancel: () => ld.cancel(a),
  };
  const run = commands[cmd];
  if (!run) return usage(`unknown command: ${cmd}`);
  console.log(JSON.stringify(await run(), null, 2));
}

function usage(problem?: string): void {
  if (problem) console.error(`labeldesk: ${problem}`);
  console.error(USAGE);
  process.exitCode = 2;
}

/** Run as a command when executed directly; a page (no `process`) never asks for node: modules. */
async function runIfEntryPoint(): Promise<void> {
  if (!IN_NODE || !process.argv[1]) return;
  const [url, fs] = await Promise.all([import('node:url'), import('node:fs')]);
  try {
    if (import.meta.url !== url.pathToFileURL(fs.realpathSync(process.argv[1])).href) return;
  } catch {
    return; // argv[1] is not a file (node -e, a REPL): not the entry point.
  }
  await main(process.argv.slice(2)).catch((err: unknown) => {
    const status = err instanceof LabelDeskError ? `${err.status} ${err.code}: ` : '';
    console.error(`labeldesk: ${status}${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}

await runIfEntryPoint();
