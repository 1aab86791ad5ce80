import { describe, expect, it } from 'vitest';
import { isAllowedHost, parseHostHeader } from '../../../electron/node-lib/loopback-host.js';

const at = (address: string, port = 8787) => ({
  address,
  port,
  family: address.includes(':') ? 'IPv6' : 'IPv4',
});

describe('isAllowedHost', () => {
  it('accepts the listening address and localhost, with the right port or none', () => {
    for (const host of ['127.0.0.1:8787', '127.0.0.1', 'localhost:8787', 'LOCALHOST', undefined]) {
      expect({ host, ok: isAllowedHost(host, at('127.0.0.1')) }).toEqual({ host, ok: true });
    }
    expect(isAllowedHost('[::1]:8787', at('::1'))).toBe(true);
    expect(isAllowedHost('localhost:8787', at('::1'))).toBe(true);
  });

  it('refuses other names, other ports, other loopback addresses and malformed values', () => {
    for (const host of [
      'evil.example:8787',
      'evil.example',
      '127.0.0.1:8788',
      'localhost:80',
      '[::1]:8787',
      '127.0.0.2:8787',
      '127.1:8787',
      '2130706433:8787',
      'localhost.:8787',
      'localhost.evil.example:8787',
      'user@localhost:8787',
      '127.0.0.1:8787:8787',
      '127.0.0.1:',
      '',
      ' ',
    ]) {
      expect({ host, ok: isAllowedHost(host, at('127.0.0.1')) }).toEqual({ host, ok: false });
    }
    expect(isAllowedHost('127.0.0.1:8787', null)).toBe(false);
  });

  it('on a wildcard bind, accepts any address literal but never a name', () => {
    expect(isAllowedHost('192.168.1.20:8787', at('0.0.0.0'))).toBe(true);
    expect(isAllowedHost('[fe80::1]:8787', at('::'))).toBe(true);
    expect(isAllowedHost('localhost:8787', at('0.0.0.0'))).toBe(true);
    expect(isAllowedHost('rebind.evil.example:8787', at('0.0.0.0'))).toBe(false);
    expect(isAllowedHost('192.168.1.20:9999', at('0.0.0.0'))).toBe(false);
  });

  it('splits IPv6 literals from their port', () => {
    expect(parseHostHeader('[::1]:80')).toEqual({ hostname: '::1', port: 80 });
    expect(parseHostHeader('Example.COM')).toEqual({ hostname: 'example.com' });
    expect(parseHostHeader('::1')).toBeUndefined();
  });
});
