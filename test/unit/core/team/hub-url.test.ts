import { describe, expect, it } from 'vitest';
import { hostsOfAddress, hubAccount, parseHubUrl } from '../../../../electron/core/team/hub-url.js';

describe('a hub address', () => {
  it('takes the password out, keeping hosts and parameters', () => {
    const u = parseHubUrl(
      'postgresql://ana:p%40ss:w0rd@h1:5432,h2:5433/labelling?target_session_attrs=read-write&sslmode=verify-full',
    );
    expect(u).toEqual({
      address:
        'postgresql://ana@h1:5432,h2:5433/labelling?target_session_attrs=read-write&sslmode=verify-full',
      role: 'ana',
      password: 'p@ss:w0rd',
      database: 'labelling',
    });
    expect(hubAccount(u.address)).not.toContain('w0rd');
  });

  it('refuses an address without a role or a database, or with the password as a parameter', () => {
    expect(() => parseHubUrl('postgresql://h1/db')).toThrow(/role/);
    expect(() => parseHubUrl('postgresql://ana@h1:5432')).toThrow(/database/);
    expect(() => parseHubUrl('http://ana@h1/db')).toThrow(/libpq/);
    expect(() => parseHubUrl('postgresql://ana@h1/db?password=x')).toThrow(/before the host/);
  });
});

describe("a hub address's hosts, as libpq reads its URL form", () => {
  it('lists the hosts in order, each with its port or 5432 (libpq documentation examples)', () => {
    expect(
      hostsOfAddress(
        'postgresql://ana@host1:123,host2:456/somedb?target_session_attrs=any&application_name=myapp',
      ),
    ).toEqual({
      hosts: [
        { host: 'host1', port: 123 },
        { host: 'host2', port: 456 },
      ],
      attrs: 'any',
      connectTimeoutSeconds: null,
    });
    expect(hostsOfAddress('postgresql://ana@[2001:db8::1234]/database').hosts).toEqual([
      { host: '2001:db8::1234', port: 5432 },
    ]);
    expect(
      hostsOfAddress(
        'postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp',
      ),
    ).toMatchObject({ hosts: [{ host: 'localhost', port: 5432 }], connectTimeoutSeconds: 10 });
    expect(
      hostsOfAddress('postgresql://ana@h1,[::1]:5433,h3:5434/db?target_session_attrs=read-write'),
    ).toEqual({
      hosts: [
        { host: 'h1', port: 5432 },
        { host: '::1', port: 5433 },
        { host: 'h3', port: 5434 },
      ],
      attrs: 'read-write',
      connectTimeoutSeconds: null,
    });
  });

  it('takes every target_session_attrs libpq knows, and connect_timeout as libpq counts it', () => {
    for (const a of ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby']) {
      expect(hostsOfAddress(`postgresql://ana@h1,h2/db?target_session_attrs=${a}`).attrs).toBe(a);
    }
    // libpq: 1 second counts as 2; zero or less waits for ever (the app's own default here).
    expect(hostsOfAddress('postgresql://ana@h1/db?connect_timeout=1').connectTimeoutSeconds).toBe(
      2,
    );
    expect(hostsOfAddress('postgresql://ana@h1/db?connect_timeout=0').connectTimeoutSeconds).toBe(
      null,
    );
  });

  it('refuses what libpq would refuse, with a sentence, when the address is given', () => {
    expect(() => parseHubUrl('postgresql://ana@h1,h2/db?target_session_attrs=primary-ish')).toThrow(
      /target_session_attrs must be one of any, read-write/,
    );
    expect(() => parseHubUrl('postgresql://ana@h1:99999/db')).toThrow(/not a port number/);
    expect(() => parseHubUrl('postgresql://ana@h1:54x/db')).toThrow(/HOST:PORT/);
    expect(() => parseHubUrl('postgresql://ana@h1,,h2/db')).toThrow(/HOST:PORT/);
    expect(() => parseHubUrl('postgresql://ana@h1/db?connect_timeout=soon')).toThrow(
      /whole number of seconds/,
    );
    expect(() => parseHubUrl('postgresql://ana@h1/db?host=h2')).toThrow(/in the address/);
  });
});
