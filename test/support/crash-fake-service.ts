/**
 * For runner unit tests: a catalog like the embedded service's and a scriptable fake ServicePort
 * that counts its calls and keeps its own key balance, where the real service adds nothing.
 */
import type {
  CatalogView,
  JobAnswer,
  KeyView,
  ServicePort,
  VideoSubmitted,
} from '../../electron/core/runner/service-port.js';

export function testCatalog(over: Partial<CatalogView['limits']> = {}): CatalogView {
  return {
    version: 'test-1',
    solutions: [
      {
        id: 'objects',
        media: ['image', 'video'],
        classes: ['person', 'car'],
        frameCost: { image: 4, videoFrame: 2 },
      },
      {
        id: 'stills',
        media: ['image'],
        classes: ['thing'],
        frameCost: { image: 1, videoFrame: 1 },
      },
    ],
    limits: {
      maxImageBytes: 20 * 1024 * 1024,
      maxVideoBytes: 512 * 1024 * 1024,
      maxVideoSeconds: 600,
      imageFormats: ['jpeg', 'png', 'webp'],
      videoFormats: ['mp4', 'webm'],
      maxConcurrentRequests: 4,
      maxConcurrentJobs: 2,
      hourFrames: 20_000,
      videoSampleFps: 5,
      pollIntervalMs: { min: 250, max: 5_000 },
      ...over,
    },
  };
}

export interface FakeService extends ServicePort {
  calls: { inferImage: string[]; submitVideo: string[]; job: string[]; keyStatus: number };
  /** Highest number of image calls in flight at once. */
  peakInFlight: number;
  key: { remaining: number; hourRemaining: number };
}

export interface FakeServiceScript {
  submit?: (file: string) => Promise<Partial<VideoSubmitted>> | Partial<VideoSubmitted>;
  job?: (id: string, poll: number) => Promise<JobAnswer> | JobAnswer;
  imageCost?: number;
  /** Runs before each image call is answered (`call` counts from 1): throw to refuse it. */
  image?: (file: string, call: number) => Promise<void> | void;
  /** Image answers come after this many ms (default 5). */
  latencyMs?: number;
}

export function fakeService(
  key: { remaining: number; hourRemaining?: number },
  script: FakeServiceScript = {},
): FakeService {
  const calls = {
    inferImage: [] as string[],
    submitVideo: [] as string[],
    job: [] as string[],
    keyStatus: 0,
  };
  const state = { remaining: key.remaining, hourRemaining: key.hourRemaining ?? 20_000 };
  let inFlight = 0;
  const fake: FakeService = {
    baseUrl: 'http://fake.invalid',
    calls,
    peakInFlight: 0,
    key: state,
    catalog: () => Promise.resolve(testCatalog()),
    keyStatus(): Promise<KeyView> {
      calls.keyStatus++;
      return Promise.resolve({ audience: 'api_key', ...state, expiresAt: null });
    },
    async inferImage({ file }) {
      calls.inferImage.push(file);
      inFlight++;
      fake.peakInFlight = Math.max(fake.peakInFlight, inFlight);
      try {
        await script.image?.(file, calls.inferImage.length);
        const cost = script.imageCost ?? 4;
        // The service refuses what the key cannot pay, as the real one does (402).
        if (state.remaining < cost) throw new Error(`fake service: 402 for ${file}`);
        await new Promise((r) => setTimeout(r, script.latencyMs ?? 5));
        state.remaining -= cost;
        state.hourRemaining -= cost;
        return {
          detections: [],
          image: { width: 64, height: 48, analysedWidth: 64, analysedHeight: 48 },
          stats: { model: 'fake' },
          credits: { spent: cost, ...state },
        };
      } finally {
        inFlight--;
      }
    },
    async submitVideo({ file }) {
      calls.submitVideo.push(file);
      return {
        jobId: `job-${calls.submitVideo.length}`,
        status: 'queued',
        ...(await script.submit?.(file)),
      };
    },
    async job(id) {
      calls.job.push(id);
      if (!script.job) throw new Error('fake service: no job script');
      return script.job(id, calls.job.filter((j) => j === id).length);
    },
    cancelJob: () => Promise.resolve({}),
  };
  return fake;
}
