/** A thread's nice value from its /proc stat file (the 19th field; the name before it may hold spaces). */
import { readFileSync } from 'node:fs';

export function niceOf(statFile: string): number {
  const text = readFileSync(statFile, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields from the 3rd on: the 19th is at 19 - 3.
  return Number(fields[16]);
}
