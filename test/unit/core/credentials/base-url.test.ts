import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl } from '../../../../electron/core/credentials/base-url.js';
import { InvalidBaseUrlError } from '../../../../electron/core/credentials/credential-errors.js';

describe('normaliseBaseUrl', () => {
  it('lower-cases scheme and host, drops default ports and trailing slashes', () => {
    expect(normaliseBaseUrl('HTTPS://API.Example.COM:443/V1//')).toBe('https://api.example.com/V1');
    expect(normaliseBaseUrl(' http://127.0.0.1:8080/ ')).toBe('http://127.0.0.1:8080');
    expect(normaliseBaseUrl('http://[::1]:9000')).toBe('http://[::1]:9000');
  });

  it('refuses URLs that would put a secret into the account name', () => {
    expect(() => normaliseBaseUrl('https://me:ldk_pw@api.example.com')).toThrow(
      InvalidBaseUrlError,
    );
    expect(() => normaliseBaseUrl('https://api.example.com/?key=ldk_x')).toThrow(/query/);
  });

  it('refuses non-URLs without echoing them', () => {
    let message = '';
    try {
      normaliseBaseUrl('ldk_pasted_by_mistake');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/not an absolute URL/);
    expect(message).not.toContain('pasted');
    expect(() => normaliseBaseUrl('ftp://example.com')).toThrow(/scheme/);
  });
});
