/** Starts an embedded service on port 0 in its own temp data folder, with a few helpers to call it. */
import {
  startLocalService,
  type LocalService,
  type LocalServiceOptions,
} from '../../electron/local-service/service.js';
import { tempDir } from './temp-dir.js';

export const TEST_KEY = 'ldk_test_key_0123456789';

export interface Fixture {
  service: LocalService;
  dataDir: string;
  url: string;
  call(
    path: string,
    init?: RequestInit & { token?: string | null },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  upload(
    path: string,
    fields: { solution?: string; file?: Blob; filename?: string },
    token?: string,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

export async function startFixture(
  options: Partial<LocalServiceOptions> = {},
  dataDir?: string,
): Promise<Fixture> {
  const temp = dataDir ? undefined : await tempDir('labeldesk-service-');
  const dir = dataDir ?? temp!.dir;
  const service = await startLocalService({
    dataDir: dir,
    port: 0,
    engine: 'null',
    keys: [{ key: TEST_KEY, frames: 100_000 }],
    ...options,
  });
  const call: Fixture['call'] = async (path, init = {}) => {
    const { token = TEST_KEY, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    const res = await fetch(service.url + path, { ...rest, headers });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body, headers: res.headers };
  };
  return {
    service,
    dataDir: dir,
    url: service.url,
    call,
    upload: (path, fields, token = TEST_KEY) => {
      const form = new FormData();
      if (fields.solution !== undefined) form.append('solution', fields.solution);
      if (fields.file) form.append('file', fields.file, fields.filename ?? 'upload.bin');
      return call(path, { method: 'POST', body: form, token });
    },
    stop: async () => {
      await service.close();
      await temp?.remove();
    },
  };
}
