/**
 * Issue 23 §1: `doctor --spend` applies the checks `label` applies before sending anything: a
 * `shadow.jpg` link to /etc/shadow and a text file named `.jpg` are refused with a reason and
 * never reach the service; a real photo is still sent.
 */
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../support/misbehaving-service.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { jpeg } from '../../support/synth-media.js';

let service: MisbehavingService;
let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  service = await startMisbehavingService('none');
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_API_KEY: service.key });
  await symlink('/etc/shadow', join(t.dir, 'shadow.jpg'));
  await writeFile(join(t.dir, 'notes.jpg'), 'not a photo, only text\n');
  await writeFile(join(t.dir, 'photo.jpg'), await jpeg(320, 240, 5));
});
afterAll(async () => {
  await service.close();
  await t.remove();
});

const spend = (file: string) =>
  runCli(['doctor', '--service', service.url, '--spend', join(t.dir, file)], env);

describe('doctor --spend checks the file before sending it', () => {
  it('never sends a link to /etc/shadow named .jpg', async () => {
    const r = await spend('shadow.jpg');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/shadow\.jpg was not sent|cannot be read/);
    expect(service.count('POST', '/infer/')).toBe(0);
  });

  it('never sends a text file named .jpg', async () => {
    const r = await spend('notes.jpg');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/notes\.jpg was not sent: .*decoded/);
    expect(service.count('POST', '/infer/')).toBe(0);
  });

  it('still sends a real photo', async () => {
    const r = await spend('photo.jpg');
    expect(r.code, r.stderr).toBe(0);
    expect(service.count('POST', '/infer/image')).toBe(1);
  });
});
