/**
 * The key reader: on a terminal nothing typed is echoed and raw mode is restored afterwards;
 * from a pipe the first line is the key. The terminal is a PassThrough with `setRawMode`, which
 * is all the reader asks of a TTY (the real terminal is covered by login-terminal.test.ts).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  InterruptedError,
  readLine,
  readSecret,
  type SecretInput,
} from '../../../electron/cli/hidden-input.js';

function fakeTerminal() {
  const input = new PassThrough() as PassThrough & SecretInput;
  const modes: boolean[] = [];
  input.isTTY = true;
  input.isRaw = false;
  input.setRawMode = (mode: boolean) => {
    modes.push(mode);
    input.isRaw = mode;
    return input;
  };
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString()));
  return { input, output, modes, shown: () => shown };
}

describe('readSecret on a terminal', () => {
  it('prompts, echoes nothing, edits with Backspace and Ctrl-U, restores the mode', async () => {
    const t = fakeTerminal();
    const read = readSecret('API key: ', t.input, t.output);
    t.input.write('wrong');
    t.input.write('\u0015'); // Ctrl-U clears the line
    t.input.write('ldk_ab');
    t.input.write('X\u007f'); // a typo, then Backspace
    t.input.write('\u001b[D\u001b[3~'); // arrow left, Delete: dropped, not part of the key
    t.input.write(Buffer.from('cé\r', 'utf8'));
    expect(await read).toBe('ldk_abcé');
    expect(t.shown()).toBe('API key: \n');
    expect(t.modes).toEqual([true, false]);
    expect(t.input.isRaw).toBe(false);
  });

  it('a UTF-8 character split across chunks is read whole', async () => {
    const t = fakeTerminal();
    const read = readSecret('API key: ', t.input, t.output);
    const bytes = Buffer.from('é\n', 'utf8');
    t.input.write(bytes.subarray(0, 1));
    t.input.write(bytes.subarray(1));
    expect(await read).toBe('é');
  });

  it('Ctrl-C interrupts; Ctrl-D on an empty line gives nothing', async () => {
    const t = fakeTerminal();
    const read = readSecret('API key: ', t.input, t.output);
    t.input.write('ldk\u0003');
    await expect(read).rejects.toBeInstanceOf(InterruptedError);
    expect(t.input.isRaw).toBe(false);
    const again = fakeTerminal();
    const empty = readSecret('API key: ', again.input, again.output);
    again.input.write('\u0004');
    expect(await empty).toBe('');
  });
});

describe('readSecret from a pipe', () => {
  it('reads the first line, with or without a line break, and shows no prompt', async () => {
    const pipe = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const read = readSecret('API key: ', pipe, output);
    pipe.end('ldk_piped\r\nsecond line\n');
    expect(await read).toBe('ldk_piped');
    expect(shown).toBe('');
    const bare = new PassThrough();
    const noBreak = readLine(bare);
    bare.end('ldk_no_break');
    expect(await noBreak).toBe('ldk_no_break');
  });
});
