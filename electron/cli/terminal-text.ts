/**
 * Text bound for a terminal. File names may hold control characters (a newline, ESC, a bell):
 * printed raw they break lines or drive the terminal. Every CLI line that shows a name goes
 * through `terminalText`, which writes C0/C1 controls and DEL as visible escapes (`\n`, `\x1b`,
 * `\u009b`) and backslashes as `\\` so the escape cannot be confused with the name.
 */
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\\u2028\u2029]/g;

export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}
