/**
 * A project in the hub: one PostgreSQL schema, created by `team create` and owned by the lead's
 * role. It holds the project's files (content hash, path relative to the project's folder, size,
 * kind, dimensions: never the bytes), the model's answers, and the append-only log of people's
 * changes. Access is the database's own: grants per member role, and row-level security so a
 * member adds rows only as themself, reads only while a member, and nobody rewrites the log.
 */

/** The hub layout this code writes and reads (`project.format`). */
export const HUB_FORMAT = 1;

export class ProjectNameError extends Error {
  override readonly name = 'ProjectNameError';
  readonly code = 'bad_project_name';
}

/**
 * A project's name is its schema's, prefixed: lower-case letters, digits and `_`. At most 45, so
 * that its NOTIFY channel (`labeldesk_NAME_changes`) fits PostgreSQL's 63-byte identifiers: a
 * longer one made every push fail with 22023, "channel name too long".
 */
export function projectSchema(project: string): string {
  if (!/^[a-z][a-z0-9_]{0,44}$/.test(project)) {
    throw new ProjectNameError(
      `"${project}" is not a project name: use lower-case letters, digits and _, starting with a letter (at most 45).`,
    );
  }
  return `labeldesk_${project}`;
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The channel a project's NOTIFY wakes desktops on. */
export const changesChannel = (schema: string) => `${schema}_changes`;

/** The DDL of a new project (one transaction); `s` is the schema, quoted. */
export function createProjectSql(schema: string, project: string, folder: string): string {
  const s = quoteIdent(schema);
  return `
    CREATE SCHEMA ${s};
    CREATE TABLE ${s}.project (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      name text NOT NULL,
      format integer NOT NULL,
      lead_folder text NOT NULL,
      settings jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO ${s}.project (name, format, lead_folder)
      VALUES (${quoteLiteral(project)}, ${HUB_FORMAT}, ${quoteLiteral(folder)});

    -- Issue 26 adds assignments and claims; the member's role here is what its policies read.
    CREATE TABLE ${s}.members (
      role_name name PRIMARY KEY,
      role text NOT NULL CHECK (role IN ('lead', 'annotator')),
      added_at timestamptz NOT NULL DEFAULT now(),
      added_by name NOT NULL DEFAULT current_user
    );
    INSERT INTO ${s}.members (role_name, role) VALUES (current_user, 'lead');

    CREATE FUNCTION ${s}.is_member() RETURNS boolean LANGUAGE sql STABLE AS
      $$ SELECT EXISTS (SELECT 1 FROM ${s}.members WHERE role_name = current_user) $$;

    CREATE TABLE ${s}.files (
      content_hash text PRIMARY KEY,
      rel_path text NOT NULL,
      size bigint NOT NULL CHECK (size >= 0),
      kind text NOT NULL CHECK (kind IN ('image', 'video')),
      width integer,
      height integer,
      added_by name NOT NULL DEFAULT current_user,
      added_at timestamptz NOT NULL DEFAULT now()
    );

    -- One paid answer per content, solution and service; who paid for it.
    CREATE TABLE ${s}.answers (
      content_hash text NOT NULL,
      solution text NOT NULL,
      service text NOT NULL,
      answer jsonb NOT NULL,
      frames integer,
      paid_by name NOT NULL DEFAULT current_user,
      added_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (content_hash, solution, service)
    );

    CREATE TABLE ${s}.changes (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      member name NOT NULL DEFAULT current_user,
      at timestamptz NOT NULL DEFAULT now(),
      kind text NOT NULL,
      payload jsonb NOT NULL
    );

    -- Pushes are serialised (a lock held to commit), so seq order is commit order and a desktop
    -- reading past seq N never later meets a smaller seq committed after it read.
    CREATE FUNCTION ${s}.changes_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(hashtext(${quoteLiteral(schema)})); RETURN NULL; END $$;
    CREATE TRIGGER changes_in_order BEFORE INSERT ON ${s}.changes
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.changes_in_order();
    CREATE FUNCTION ${s}.changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify(${quoteLiteral(changesChannel(schema))}, ''); RETURN NULL; END $$;
    CREATE TRIGGER changes_notify AFTER INSERT ON ${s}.changes
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.changes_notify();
    -- The log is append-only for everyone, its owner included (row security does not cover TRUNCATE).
    CREATE FUNCTION ${s}.changes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the change log of a LabelDesk project is append-only'
        USING ERRCODE = 'insufficient_privilege'; END $$;
    CREATE TRIGGER changes_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ${s}.changes
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.changes_append_only();

    ${rowSecurity(s, 'changes', 'member')}
    ${rowSecurity(s, 'files', 'added_by')}
    ${rowSecurity(s, 'answers', 'paid_by')}
  `;
}

/** Members read the table and add rows under their own name only; nobody updates or deletes. */
function rowSecurity(s: string, table: string, byColumn: string): string {
  return `
    ALTER TABLE ${s}.${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.${table} FORCE ROW LEVEL SECURITY;
    -- As a sub-select: checked once per statement, not once per row read.
    CREATE POLICY members_read ON ${s}.${table} FOR SELECT USING ((SELECT ${s}.is_member()));
    CREATE POLICY members_add_own ON ${s}.${table} FOR INSERT
      WITH CHECK (${byColumn} = current_user AND ${s}.is_member());`;
}

/** What a member may do: read the project, add files, answers and changes. */
export function grantMemberSql(schema: string, role: string, memberRole: string): string {
  const s = quoteIdent(schema);
  const r = quoteIdent(role);
  return `
    GRANT USAGE ON SCHEMA ${s} TO ${r};
    GRANT SELECT ON ${s}.project, ${s}.members, ${s}.files, ${s}.answers, ${s}.changes TO ${r};
    GRANT INSERT ON ${s}.files, ${s}.answers, ${s}.changes TO ${r};
    GRANT USAGE ON SEQUENCE ${s}.changes_seq_seq TO ${r};
    INSERT INTO ${s}.members (role_name, role) VALUES (${quoteLiteral(role)}, ${quoteLiteral(memberRole)})
      ON CONFLICT (role_name) DO UPDATE SET role = excluded.role;`;
}

/** A removed member can no longer reach the schema at all (and is no member for the policies). */
export function revokeMemberSql(schema: string, role: string): string {
  const s = quoteIdent(schema);
  const r = quoteIdent(role);
  return `
    DELETE FROM ${s}.members WHERE role_name = ${quoteLiteral(role)};
    REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${r};
    REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r};
    REVOKE ALL ON SCHEMA ${s} FROM ${r};`;
}
