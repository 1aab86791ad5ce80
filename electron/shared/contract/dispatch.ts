/**
 * Answers one call message with the handlers: the name must be in the contract, the input is
 * validated (and defaulted) by its schema before a handler sees it, and a handler's failure becomes
 * a coded error. Used by both transports (Electron IPC and the browser bridge) and by tests.
 */
import { LabelDeskError, type ErrorBody } from './common-schemas.js';
import type { ReplyMessage } from './envelope.js';
import { CALLS, isCallName, type CallName, type Handlers } from './labeldesk-api.js';
import { messageOf } from '../error-message.js';

/** Turns whatever a handler threw into a code and a sentence (never a stack or a secret). */
export type ErrorMapper = (err: unknown) => ErrorBody;

export const defaultErrorMapper: ErrorMapper = (err) => {
  if (err instanceof LabelDeskError) return { code: err.code, message: err.message };
  const code =
    typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
      ? (err as { code: string }).code
      : 'internal_error';
  return { code, message: messageOf(err) };
};

export async function dispatchCall(
  handlers: Handlers,
  id: number,
  name: unknown,
  input: unknown,
  mapError: ErrorMapper = defaultErrorMapper,
): Promise<ReplyMessage> {
  if (!isCallName(name)) {
    return {
      type: 'reply',
      id,
      ok: false,
      error: {
        code: 'unknown_call',
        message: `There is no call named ${JSON.stringify(String(name)).slice(0, 120)}.`,
      },
    };
  }
  const parsed = CALLS[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return {
      type: 'reply',
      id,
      ok: false,
      error: {
        code: 'invalid_arguments',
        message: `${name}: ${issue?.message ?? 'invalid arguments'}${where}.`,
      },
    };
  }
  try {
    const handler = handlers[name] as (args: unknown) => unknown;
    const result = await handler(parsed.data);
    return { type: 'reply', id, ok: true, result: CALLS[name as CallName].output.parse(result) };
  } catch (err) {
    return { type: 'reply', id, ok: false, error: mapError(err) };
  }
}
