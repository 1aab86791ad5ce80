/**
 * LabelDesk client for the browser (ES module), version __LABELDESK_VERSION__.
 * Talks to a LabelDesk detection service. Single file, no dependencies: fetch, FormData, Blob and
 * File only, so it also runs under Node >= 18 as a command.
 *
 * In a page:
 *   import LabelDeskClient from 'http://127.0.0.1:8787/sdk/browser';
 *   const ld = new LabelDeskClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'ldk_...' });
 *   const { detections } = await ld.inferImage({ solution: 'objects', file: input.files[0] });
 *   const sub = await ld.inferVideo({ solution: 'objects', file: clipBlob });
 *   const job = await ld.waitForJob(sub.jobId, { onProgress: (j) => console.log(j.progress) });
 *
 * As a command (BASE_URL and API_KEY from the environment; JSON on stdout, errors on stderr):
 *   node labeldesk.browser.mjs catalog | health | key | sdk-key | session DEVICE_ID
 *   node labeldesk.browser.mjs image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID
 */
export const VERSION = '__LABELDESK_VERSION__';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const DEFAULT_POLL_MS = 1000;
const TYPES = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  avif: 'image/avif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
};

/** Content type of an upload, from its file name's extension. */
export function contentTypeFor(name) {
  const ext = /\.([^./\\]+)$/.exec(name ?? '')?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || 'application/octet-stream';
}

/** A non-2xx answer: `status`, `code` and `message` from `{"error":{code,message}}`. */
export class LabelDeskError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.name = 'LabelDeskError';
    this.status = status;
    this.code = code;
    /** Seconds to wait before retrying (from Retry-After, sent with 429). */
    this.retryAfter = retryAfter;
  }
}

export default class LabelDeskClient {
  /** @param {{ baseUrl: string, apiKey?: string }} options */
  constructor({ baseUrl, apiKey } = {}) {
    if (!baseUrl) throw new TypeError('LabelDeskClient: baseUrl is required');
    this.baseUrl = String(baseUrl).replace(/\/+$/, '');
    this.apiKey = apiKey;
  }

  catalog() {
    return this.#call('GET', '/catalog', { auth: false });
  }

  health() {
    return this.#call('GET', '/healthz', { auth: false });
  }

  /** The source of the client for `lang` (curl, python, node, ts, browser), as text. */
  sdk(lang) {
    return this.#call('GET', `/sdk/${encodeURIComponent(lang)}`, { auth: false, text: true });
  }

  session(deviceId, turnstileToken) {
    const json = turnstileToken ? { deviceId, turnstileToken } : { deviceId };
    return this.#call('POST', '/session', { auth: false, json });
  }

  key() {
    return this.#call('GET', '/key');
  }

  /** Exchanges the browser session token this client holds for a trial SDK key. */
  sdkKey() {
    return this.#call('POST', '/sdk-key', { json: {} });
  }

  /** `file`: a Blob/File, or bytes (pass `filename` so the type can be told). */
  async inferImage({ solution, file, filename, signal }) {
    const form = await uploadForm(solution, file, filename);
    return this.#call('POST', '/infer/image', { form, signal });
  }

  async inferVideo({ solution, file, filename, signal }) {
    const form = await uploadForm(solution, file, filename);
    return this.#call('POST', '/infer/video', { form, signal });
  }

  job(id, { signal } = {}) {
    return this.#call('GET', `/jobs/${encodeURIComponent(id)}`, { signal });
  }

  cancel(id) {
    return this.#call('DELETE', `/jobs/${encodeURIComponent(id)}`);
  }

  /** Polls until the job is succeeded, failed or cancelled, waiting pollIntervalMs each time. */
  async waitForJob(id, { signal, onProgress } = {}) {
    for (;;) {
      const job = await this.job(id, { signal });
      onProgress?.(job);
      if (TERMINAL.has(job.status)) return job;
      await sleep(pollDelay(job), signal);
    }
  }

  async #call(method, path, { auth = true, json, form, text = false, signal } = {}) {
    // No custom headers: anything beyond authorization/content-type would widen the CORS preflight.
    const headers = {};
    if (auth && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let body = form;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, signal });
    const raw = await res.text();
    if (!res.ok) throw errorFrom(res, raw);
    return text ? raw : JSON.parse(raw);
  }
}

function errorFrom(res, raw) {
  let error;
  try {
    error = JSON.parse(raw).error;
  } catch {
    // Not our JSON (a proxy page, say): fall back to the status line.
  }
  const header = res.headers.get('retry-after');
  let retryAfter;
  if (header !== null) {
    const secs = Number(header);
    retryAfter = Number.isFinite(secs)
      ? secs
      : Math.max(0, (Date.parse(header) - Date.now()) / 1e3);
  }
  const message = error?.message ?? (raw.slice(0, 200) || res.statusText);
  return new LabelDeskError(res.status, error?.code ?? 'http_error', message, retryAfter);
}

// The server validates the solution before reading the upload, so `solution` goes first.
async function uploadForm(solution, file, filename) {
  const { blob, name } = await toBlob(file, filename);
  const form = new FormData();
  form.append('solution', solution);
  form.append('file', blob, name);
  return form;
}

async function toBlob(file, filename) {
  if (file instanceof Blob) {
    const name = filename ?? (file.name || uploadName(file.type));
    let type = contentTypeFor(name);
    if (type === 'application/octet-stream' && file.type) type = file.type;
    return { blob: file.type === type ? file : file.slice(0, file.size, type), name };
  }
  if (file instanceof ArrayBuffer || ArrayBuffer.isView(file)) {
    const name = filename ?? 'upload';
    return { blob: new Blob([file], { type: contentTypeFor(name) }), name };
  }
  throw new TypeError('file must be a Blob/File or bytes');
}

/** A file name for an unnamed Blob, so the server sees a matching extension. */
function uploadName(type) {
  const ext = Object.keys(TYPES).find((k) => TYPES[k] === type);
  return ext ? `upload.${ext}` : 'upload';
}

function pollDelay(job) {
  const ms = job?.pollIntervalMs;
  return Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_POLL_MS;
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const USAGE = `usage: labeldesk.browser.mjs <command> [args]   (env: BASE_URL, API_KEY, TURNSTILE_TOKEN)
  catalog | health | key | sdk-key | session DEVICE_ID
  image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID`;

async function main(argv, node) {
  const [cmd, a, b] = argv;
  const arity = { session: 1, image: 2, video: 2, job: 1, cancel: 1 }[cmd] ?? 0;
  if (!cmd || [a, b].slice(0, arity).some((x) => !x)) return usage();
  if (!process.env.BASE_URL) return usage('BASE_URL is not set');
  const ld = new LabelDeskClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
  const run = {
    catalog: () => ld.catalog(),
    health: () => ld.health(),
    key: () => ld.key(),
    'sdk-key': () => ld.sdkKey(),
    session: () => ld.session(a, process.env.TURNSTILE_TOKEN),
    image: async () =>
      ld.inferImage({ file: await node.readFile(a), filename: base(a), solution: b }),
    video: async () => {
      const file = await node.readFile(a);
      const submitted = await ld.inferVideo({ file, filename: base(a), solution: b });
      await sleep(pollDelay(submitted));
      return ld.waitForJob(submitted.jobId);
    },
    job: () => ld.job(a),
    cancel: () => ld.cancel(a),
  }[cmd];
  if (!run) return usage(`unknown command: ${cmd}`);
  const out = await run();
  console.log(JSON.stringify(out, null, 2));
  if (cmd === 'video' && out.status !== 'succeeded') {
    console.error(`labeldesk: job ${out.jobId} ended ${out.status}`);
    process.exitCode = 1;
  }
}

const base = (path) => path.split(/[\\/]/).pop();

function usage(problem) {
  if (problem) console.error(`labeldesk: ${problem}`);
  console.error(USAGE);
  process.exitCode = 2;
}

// Node-only: run as a command when executed directly. Browsers skip this (no `process`), and the
// node: modules are imported lazily so the page never asks for them.
if (typeof process !== 'undefined' && process.versions?.node && process.argv?.[1]) {
  const [url, fs] = await Promise.all([import('node:url'), import('node:fs')]);
  let entry = false;
  try {
    entry = import.meta.url === url.pathToFileURL(fs.realpathSync(process.argv[1])).href;
  } catch {
    // argv[1] is not a file (node -e, a REPL): not the entry point.
  }
  if (entry) {
    await main(process.argv.slice(2), fs.promises).catch((err) => {
      const status = err instanceof LabelDeskError ? `${err.status} ${err.code}: ` : '';
      console.error(`labeldesk: ${status}${err.message}`);
      process.exitCode = 1;
    });
  }
}
