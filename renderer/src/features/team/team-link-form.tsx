/**
 * Create or join a team project. The password, typed or in the address, goes to the keychain
 * through one call; the field is emptied after every submit and nothing else keeps it.
 */
import { useState, type FormEvent } from 'react';
import { useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';

const withoutPassword = (url: string) =>
  url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/, '$1@');

export function TeamLinkForm() {
  const [create, setCreate] = useState(true);
  const [hub, setHub] = useState('');
  const [project, setProject] = useState('');
  const [folder, setFolder] = useState('');
  const [password, setPassword] = useState('');
  const link = useCallMutation('team.link', ['team.state', 'team.conflicts']);

  function submit(e: FormEvent) {
    e.preventDefault();
    const typed = password;
    setPassword('');
    // A password in the address leaves the field too once sent (the keychain keeps it).
    setHub(withoutPassword(hub));
    link.mutate({
      create,
      hub: hub.trim(),
      project: project.trim(),
      folder: folder.trim(),
      ...(typed ? { password: typed } : {}),
    });
  }

  return (
    <form className="form-card" onSubmit={submit} aria-label="Team project">
      <h3>Share this library's project with a team</h3>
      <fieldset className="field">
        <legend>What to do</legend>
        <label>
          <input type="radio" checked={create} onChange={() => setCreate(true)} /> Create a project
          (you become its lead)
        </label>
        <label>
          <input type="radio" checked={!create} onChange={() => setCreate(false)} /> Join a project
          a lead added you to
        </label>
      </fieldset>
      <label className="field">
        <span>Hub address</span>
        <input
          required
          placeholder="postgresql://you@hub.example.com/labeldesk"
          autoComplete="off"
          spellCheck={false}
          value={hub}
          onChange={(e) => setHub(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Password</span>
        <input
          type="password"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Project</span>
        <input
          required
          pattern="[a-z][a-z0-9_]{0,44}"
          title="lower-case letters, digits and _, starting with a letter"
          value={project}
          onChange={(e) => setProject(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Project folder on this computer</span>
        <input required value={folder} onChange={(e) => setFolder(e.target.value)} />
      </label>
      <p className="hint">
        The password is stored in the system keychain, never in the library or the hub.
      </p>
      <div className="actions">
        <button type="submit" className="primary" disabled={link.isPending}>
          {link.isPending ? 'Connecting…' : create ? 'Create project' : 'Join project'}
        </button>
      </div>
      {link.isError ? <ErrorNote error={link.error} /> : null}
    </form>
  );
}
