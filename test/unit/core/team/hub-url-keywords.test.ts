/**
 * libpq's keyword/value form of a hub address (libpq documentation, 34.1.1.1 "Keyword/Value
 * Connection Strings" and 34.1.1.3 "Specifying Multiple Hosts"): read as libpq reads it, stored in
 * the URL form without the password, unknown keywords refused by name.
 */
import { describe, expect, it } from 'vitest';
import { readKeywordPairs } from '../../../../electron/core/team/hub-url-keywords.js';
import { hostsOfAddress, parseHubUrl } from '../../../../electron/core/team/hub-url.js';

describe("libpq's keyword/value form of a hub address", () => {
  it("reads the documentation's examples as the URL form reads its equivalents", () => {
    const u = parseHubUrl('host=localhost port=5432 dbname=mydb connect_timeout=10 user=ana');
    expect(u).toEqual({
      address: 'postgresql://ana@localhost:5432/mydb?connect_timeout=10',
      role: 'ana',
      password: undefined,
      database: 'mydb',
    });
    expect(hostsOfAddress(u.address)).toEqual({
      hosts: [{ host: 'localhost', port: 5432 }],
      attrs: 'any',
      connectTimeoutSeconds: 10,
    });
    const multi = parseHubUrl(
      'host=host1,host2 port=123,456 dbname=somedb user=ana target_session_attrs=any application_name=myapp',
    );
    expect(hostsOfAddress(multi.address)).toEqual(
      hostsOfAddress(
        'postgresql://ana@host1:123,host2:456/somedb?target_session_attrs=any&application_name=myapp',
      ),
    );
  });

  it("takes the brief's address: several hosts, ports, read-write and connect_timeout", () => {
    const u = parseHubUrl(
      'host=h1,h2 port=5432,5433 dbname=x user=u target_session_attrs=read-write connect_timeout=3',
    );
    expect(u.address).toBe(
      'postgresql://u@h1:5432,h2:5433/x?connect_timeout=3&target_session_attrs=read-write',
    );
    expect(hostsOfAddress(u.address)).toEqual({
      hosts: [
        { host: 'h1', port: 5432 },
        { host: 'h2', port: 5433 },
      ],
      attrs: 'read-write',
      connectTimeoutSeconds: 3,
    });
  });

  it('quotes as libpq does: single quotes around spaces, backslash before a quote or a backslash, spaces around =', () => {
    expect(
      Object.fromEntries(
        readKeywordPairs(
          "  host = h1   password='a b\\'c\\\\d'  user =ana dbname= 'my db' sslmode=\\'x  options=''",
        ),
      ),
    ).toEqual({
      host: 'h1',
      password: "a b'c\\d",
      user: 'ana',
      dbname: 'my db',
      sslmode: "'x",
      options: '',
    });
  });

  it('hands the password back apart and never keeps it in the address', () => {
    const u = parseHubUrl("host=h1 user=ana password='s3cret pw' dbname=d");
    expect(u.password).toBe('s3cret pw');
    expect(u.address).toBe('postgresql://ana@h1/d');
    expect(u.address).not.toContain('s3cret');
  });

  it("defaults the database to the user's name and one port to every host, as libpq does", () => {
    const u = parseHubUrl('host=h1,h2,::1 port=6000 user=ana');
    expect(u.database).toBe('ana');
    expect(hostsOfAddress(u.address).hosts).toEqual([
      { host: 'h1', port: 6000 },
      { host: 'h2', port: 6000 },
      { host: '::1', port: 6000 },
    ]);
    expect(hostsOfAddress(parseHubUrl('host=h1,h2 port=,5433 user=a').address).hosts).toEqual([
      { host: 'h1', port: 5432 },
      { host: 'h2', port: 5433 },
    ]);
  });

  it('refuses unknown keywords, unused ones, and malformed strings with a clear message', () => {
    expect(() => parseHubUrl('host=h1 user=a colour=blue')).toThrow(
      /"colour" is not a libpq connection keyword/,
    );
    expect(() => parseHubUrl('host=h1 user=a hostaddr=10.0.0.1')).toThrow(
      /does not take libpq's "hostaddr"/,
    );
    expect(() => parseHubUrl('host=h1 user')).toThrow(/"user" without "="/);
    expect(() => parseHubUrl("host=h1 user='ana")).toThrow(/no closing quote/);
    expect(() => parseHubUrl('host=h1 dbname=d')).toThrow(/user=ROLE/);
    expect(() => parseHubUrl('host=h1,h2,h3 port=1,2 user=a')).toThrow(/3 hosts and 2 ports/);
    expect(() => parseHubUrl('host=h1 user=a target_session_attrs=fastest')).toThrow(
      /target_session_attrs must be one of/,
    );
    expect(() => parseHubUrl('host=/var/run/postgresql user=a')).toThrow(/over TCP/);
    for (const bad of ['host=h1 user=a colour=blue', 'host=h1 user']) {
      try {
        parseHubUrl(bad);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('bad_hub_url');
      }
    }
  });
});
