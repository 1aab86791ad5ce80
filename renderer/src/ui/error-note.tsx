/** A coded error as the user sees it: its sentence, with the code for reports. */
import { codedError } from '../api/error-text.js';

export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  const { code, message } = codedError(error);
  return (
    <p className="error-note" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {message} <code className="error-code">{code}</code>
    </p>
  );
}
