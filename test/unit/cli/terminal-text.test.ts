import { describe, expect, it } from 'vitest';
import { describeError } from '../../../electron/cli/cli-errors.js';
import { terminalText } from '../../../electron/cli/terminal-text.js';
import { NetworkError } from '../../../electron/core/service/service-errors.js';

describe('terminalText', () => {
  it('shows control characters as escapes and leaves the rest alone', () => {
    expect(terminalText('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(terminalText('red\u001b[31m bell\u0007 csi\u009b del\u007f')).toBe(
      'red\\x1b[31m bell\\x07 csi\\x9b del\\x7f',
    );
    expect(terminalText('back\\slash')).toBe('back\\\\slash');
    expect(terminalText('sep\u2028arator')).toBe('sep\\u2028arator');
    expect(terminalText('plain — é 漢字 🙂')).toBe('plain — é 漢字 🙂');
  });
});

describe('describeError', () => {
  const refused = () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    return new NetworkError('network', 'GET /catalog: connect ECONNREFUSED', {
      cause: new TypeError('fetch failed', { cause }),
    });
  };

  it('names the service and says it cannot be reached, in words', () => {
    expect(describeError(refused(), 'http://127.0.0.1:9')).toBe(
      'The service at http://127.0.0.1:9 cannot be reached: nothing is listening there (ECONNREFUSED).',
    );
    expect(describeError(refused(), undefined)).toMatch(/^The embedded service cannot be reached/);
    expect(
      describeError(new NetworkError('timeout', 'GET /catalog: no progress'), 'https://x.test'),
    ).toBe('The service at https://x.test cannot be reached: it did not answer in time.');
  });

  it('escapes control characters of any other message', () => {
    expect(describeError(new Error('bad\nname\u001b'), undefined)).toBe('bad\\nname\\x1b');
  });
});
