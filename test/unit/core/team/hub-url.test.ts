import { describe, expect, it } from 'vitest';
import { hubAccount, parseHubUrl } from '../../../../electron/core/team/hub-url.js';

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
