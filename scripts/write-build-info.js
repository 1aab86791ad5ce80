// Stamps the build with an id (the git commit when there is one) so the catalog's version names the build.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

let buildId;
try {
  buildId = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    encoding: 'utf8',
  });
  if (dirty.trim()) buildId += '.dirty';
} catch {
  buildId = `t${Date.now().toString(36)}`;
}
mkdirSync('build', { recursive: true });
writeFileSync(
  'build/build-info.json',
  JSON.stringify({ buildId, builtAt: new Date().toISOString() }) + '\n',
);
