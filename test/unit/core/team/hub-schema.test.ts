/** A project's name fits every identifier made of it: its schema and its NOTIFY channel. */
import { describe, expect, it } from 'vitest';
import {
  changesChannel,
  ProjectNameError,
  projectSchema,
} from '../../../../electron/core/team/hub-schema.js';

describe('project names', () => {
  it("take at most 45 characters, so the changes channel fits PostgreSQL's 63 bytes", () => {
    const longest = `p${'x'.repeat(44)}`;
    expect(changesChannel(projectSchema(longest)).length).toBeLessThanOrEqual(63);
    expect(() => projectSchema(`${longest}x`)).toThrow(ProjectNameError);
  });
});
