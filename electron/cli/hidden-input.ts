/**
 * Reading a secret: on a terminal, a prompt and raw-mode input that is never echoed (Backspace
 * and Ctrl-U edit, Enter ends, Ctrl-C interrupts, escape sequences such as arrow keys are
 * dropped); from a pipe, the first line. readline's own muting relies on private methods that
 * Node renamed, which is how the key came to be echoed; this reader owns the terminal instead.
 */
import { StringDecoder } from 'node:string_decoder';

export interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Ctrl-C at the prompt: the command ends with exit code 130, as after any interrupt. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  readonly code = 'interrupted';
}

const ENTER = new Set(['\r', '\n']);
const BACKSPACE = new Set(['\u007f', '\b']);

/** The first line of a pipe (or all of it when there is no line break), without its line end. */
export async function readLine(input: NodeJS.ReadableStream): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    const end = text.search(/\r?\n/);
    if (end >= 0) return text.slice(0, end);
  }
  return text + decoder.end();
}

/** Prompts on `output` and reads one line from a terminal without echoing it. */
export function readHidden(
  prompt: string,
  input: SecretInput,
  output: NodeJS.WritableStream,
): Promise<string> {
  const wasRaw = input.isRaw ?? false;
  const decoder = new StringDecoder('utf8');
  // Echo goes off before the prompt shows: keys typed the moment it appears are never echoed.
  input.setRawMode?.(true);
  output.write(prompt);
  input.resume();
  let value = '';
  let escape = '';
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.setRawMode?.(wasRaw);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onEnd = () => finish();
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (const c of text) {
        if (escape) {
          // CSI sequences end with a letter or ~; a lone ESC followed by anything else ends too.
          escape += c;
          if (escape === '\u001b[' || (escape.startsWith('\u001b[') && !/[A-Za-z~]$/.test(c))) {
            continue;
          }
          escape = '';
        } else if (c === '\u001b') escape = c;
        else if (ENTER.has(c)) return finish();
        else if (c === '\u0003') return finish(new InterruptedError('Interrupted.'));
        else if (c === '\u0004') {
          if (value === '') return finish();
        } else if (BACKSPACE.has(c)) value = [...value].slice(0, -1).join('');
        else if (c === '\u0015') value = '';
        else if (c >= ' ') value += c;
      }
    };
    input.on('data', onData);
    input.on('end', onEnd);
  });
}

/** A key from standard input: hidden behind a prompt on a terminal, the first line of a pipe. */
export function readSecret(
  prompt: string,
  input: SecretInput = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  return input.isTTY ? readHidden(prompt, input, output) : readLine(input);
}
