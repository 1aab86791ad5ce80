/** Where a secret could have leaked on disk: every file under a folder that holds one of them. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(p);
    else if (entry.isFile()) yield p;
  }
}

/** The files read (so a test can tell it looked at something) and those holding a secret. */
export async function filesHolding(
  dir: string,
  secrets: string[],
): Promise<{ read: number; holding: string[] }> {
  let read = 0;
  const holding: string[] = [];
  for await (const file of filesUnder(dir)) {
    if ((await stat(file)).size > 50_000_000) continue;
    read++;
    const bytes = await readFile(file);
    if (secrets.some((s) => bytes.includes(Buffer.from(s)))) holding.push(file);
  }
  return { read, holding };
}
