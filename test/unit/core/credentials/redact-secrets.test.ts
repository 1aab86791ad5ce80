import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../electron/core/credentials/redact-secrets.js';

describe('redactSecrets', () => {
  it('masks API keys, session tokens and trial keys, keeping the prefix', () => {
    const text = 'key=ldk_AbC-9_x session "lds_Zz.1~" trial:ldt_q+/w= end';
    expect(redactSecrets(text)).toBe('key=ldk_*** session "lds_***" trial:ldt_*** end');
  });

  it('masks bearer credentials in any case', () => {
    expect(redactSecrets('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer ***');
    expect(redactSecrets('{"auth":"bearer xyz"}')).toBe('{"auth":"bearer ***"}');
  });

  it('masks tokens glued to underscores but leaves ordinary words', () => {
    expect(redactSecrets('x_ldk_secret')).toBe('x_ldk_***');
    expect(redactSecrets('builds_dir holds ldk_')).toBe('builds_dir holds ldk_');
  });

  it('masks every occurrence', () => {
    expect(redactSecrets('ldk_a ldk_b')).toBe('ldk_*** ldk_***');
  });
});
