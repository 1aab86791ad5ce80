import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_KEY, startFixture, type Fixture } from '../../support/service-fixture.js';

let f: Fixture | undefined;
afterEach(async () => {
  await f?.stop();
  f = undefined;
});

const session = (fx: Fixture, body: unknown) =>
  fx.call('/session', {
    method: 'POST',
    token: null,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('POST /session', () => {
  it('mints a session token with credits and pool counters', async () => {
    f = await startFixture();
    const { status, body } = await session(f, { deviceId: randomUUID() });
    expect(status).toBe(201);
    expect(body.token).toMatch(/^lds_/);
    expect(body.credits).toBe(f.service.config.limits.sessionFrames);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    expect(body.deviceFramesLeft).toBe(f.service.config.limits.deviceDayFrames - body.credits);
    expect(body.networkFramesLeft).toBe(f.service.config.limits.networkDayFrames - body.credits);
    const key = await f.call('/key', { token: body.token });
    expect(key.body).toMatchObject({ audience: 'session', remaining: body.credits });
  });

  it('refuses a deviceId that is not a UUID v4', async () => {
    f = await startFixture();
    for (const deviceId of ['abc', '123e4567-e89b-12d3-a456-426614174000', 42, undefined]) {
      const { status, body } = await session(f, { deviceId });
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_device_id');
    }
    const bad = await f.call('/session', { method: 'POST', token: null, body: '{not json' });
    expect(bad.body.error.code).toBe('malformed_json');
  });

  it('stops one device from draining the allowance, and caps the network too', async () => {
    f = await startFixture({
      limits: { sessionFrames: 100, deviceDayFrames: 250, networkDayFrames: 400 },
    });
    const device = randomUUID();
    expect((await session(f, { deviceId: device })).body.credits).toBe(100);
    expect((await session(f, { deviceId: device })).body.credits).toBe(100);
    const third = await session(f, { deviceId: device });
    expect(third.body).toMatchObject({ credits: 50, deviceFramesLeft: 0 });
    const fourth = await session(f, { deviceId: device });
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.code).toBe('device_frames_exhausted');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another device on the same network gets what the network has left, then nothing.
    const other = await session(f, { deviceId: randomUUID() });
    expect(other.body).toMatchObject({ credits: 100, networkFramesLeft: 50 });
    await session(f, { deviceId: randomUUID() });
    const last = await session(f, { deviceId: randomUUID() });
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('network_frames_exhausted');
  });

  it('demands the challenge token only when one is configured', async () => {
    f = await startFixture({ challengeToken: 'turnstile-ok' });
    expect((await session(f, { deviceId: randomUUID() })).body.error.code).toBe(
      'challenge_required',
    );
    const wrong = await session(f, { deviceId: randomUUID(), turnstileToken: 'nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('challenge_failed');
    expect(
      (await session(f, { deviceId: randomUUID(), turnstileToken: 'turnstile-ok' })).status,
    ).toBe(201);
  });
});

describe('GET /key', () => {
  it('reports the balance of an API key without spending', async () => {
    f = await startFixture();
    const first = await f.call('/key');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      audience: 'api_key',
      remaining: 100_000,
      hourRemaining: f.service.config.limits.hourFrames,
      expiresAt: null,
    });
    expect((await f.call('/key')).body).toEqual(first.body);
  });

  it('answers 401 with distinct codes for missing, malformed, unknown and expired tokens', async () => {
    let clock = Date.now();
    f = await startFixture({ now: () => clock });
    expect((await f.call('/key', { token: null })).body.error.code).toBe('missing_token');
    const malformed = await f.call('/key', {
      token: null,
      headers: { authorization: 'Basic abc' },
    });
    expect(malformed.status).toBe(401);
    expect(malformed.body.error.code).toBe('invalid_token');
    expect((await f.call('/key', { token: 'ldk_unknown_key_123' })).body.error.code).toBe(
      'invalid_token',
    );
    const { body } = await session(f, { deviceId: randomUUID() });
    clock += 2 * 60 * 60 * 1000; // past the one-hour session lifetime
    const expired = await f.call('/key', { token: body.token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('token_expired');
  });
});

describe('POST /sdk-key', () => {
  it('exchanges a session for one trial key; an API key gets 403', async () => {
    f = await startFixture();
    const { body: s } = await session(f, { deviceId: randomUUID() });
    const trial = await f.call('/sdk-key', { method: 'POST', token: s.token, body: '{}' });
    expect(trial.status).toBe(201);
    expect(trial.body.key).toMatch(/^ldt_/);
    expect(trial.body.frames).toBe(f.service.config.limits.trialKeyFrames);
    expect(typeof trial.body.notice).toBe('string');
    const again = await f.call('/sdk-key', { method: 'POST', token: s.token });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('trial_key_exists');
    const withKey = await f.call('/sdk-key', { method: 'POST', token: TEST_KEY });
    expect(withKey.status).toBe(403);
    expect(withKey.body.error.code).toBe('session_token_required');
    const status = await f.call('/key', { token: trial.body.key });
    expect(status.body).toMatchObject({ audience: 'trial_key', remaining: trial.body.frames });
  });
});

describe('trial keys and the daily pools', () => {
  it("takes a trial key's frames from the device and network pools, so one device cannot farm them", async () => {
    f = await startFixture({
      limits: {
        sessionFrames: 100,
        trialKeyFrames: 300,
        deviceDayFrames: 500,
        networkDayFrames: 1200,
      },
    });
    const device = randomUUID();
    const exchange = async (deviceId: string) => {
      const s = await session(f!, { deviceId });
      if (s.status !== 201) return { session: s };
      return {
        session: s,
        trial: await f!.call('/sdk-key', { method: 'POST', token: s.body.token }),
      };
    };
    const first = await exchange(device);
    expect(first.trial?.body).toMatchObject({
      frames: 300,
      deviceFramesLeft: 100,
      networkFramesLeft: 800,
    });
    // The device has 100 left: a second session takes them, and its trial key gets nothing.
    const second = await exchange(device);
    expect(second.session.body.credits).toBe(100);
    expect(second.trial?.status).toBe(429);
    expect(second.trial?.body.error.code).toBe('device_frames_exhausted');
    expect(Number(second.trial?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await exchange(device)).session.status).toBe(429);
    // Other devices on the same network share its pool (700 left): full, then partial, then nothing.
    const other = await exchange(randomUUID());
    expect(other.trial?.body).toMatchObject({ frames: 300, networkFramesLeft: 300 });
    const third = await exchange(randomUUID());
    expect(third.trial?.body).toMatchObject({ frames: 200, networkFramesLeft: 0 });
    const last = await exchange(randomUUID());
    expect(last.session.status).toBe(429);
    expect(last.session.body.error.code).toBe('network_frames_exhausted');
    const granted = [first, second, other, third].reduce(
      (sum, e) => sum + (e.session.body.credits ?? 0) + (e.trial?.body.frames ?? 0),
      0,
    );
    expect(granted).toBe(1200); // exactly the network's day, never more
  });

  it('by default lets a device have one session and one full trial key a day', async () => {
    f = await startFixture();
    const device = randomUUID();
    const { body: s } = await session(f, { deviceId: device });
    const trial = await f.call('/sdk-key', { method: 'POST', token: s.token });
    expect(trial.body.frames).toBe(f.service.config.limits.trialKeyFrames);
    expect(trial.body.deviceFramesLeft).toBe(0);
    expect((await session(f, { deviceId: device })).status).toBe(429);
  });
});

describe('API keys', () => {
  it('creates one key on a first start without --key and stores only its hash', async () => {
    f = await startFixture({ keys: [] });
    const key = f.service.createdKey;
    expect(key).toMatch(/^ldk_/);
    expect((await f.call('/key', { token: key! })).status).toBe(200);
    const { readdir, readFile } = await import('node:fs/promises');
    for (const name of await readdir(f.dataDir)) {
      if (!name.startsWith('service.sqlite')) continue;
      const bytes = await readFile(`${f.dataDir}/${name}`);
      expect(bytes.includes(Buffer.from(key!))).toBe(false);
    }
  });
});
