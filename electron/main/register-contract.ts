/**
 * The contract over Electron IPC: one invoke channel answered by `dispatchCall` (which validates
 * every argument with the contract's schemas) for trusted senders only, and the application's
 * events pushed to our windows on the event channel.
 */
import type { Application } from '../application/application-types.js';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../shared/contract/channels.js';
import { dispatchCall } from '../shared/contract/dispatch.js';
import { CallMessage, type EventMessage, type ReplyMessage } from '../shared/contract/envelope.js';

/** The frame an IPC message came from (Electron's WebFrameMain, as far as we look at it). */
export interface FrameLike {
  url: string;
  parent: unknown;
}

/** What an invoke handler learns about its sender (Electron's IpcMainInvokeEvent). */
export interface IpcEventLike {
  sender: { id: number };
  senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type IsTrustedSender = (event: IpcEventLike) => boolean;

function refusal(id: number, code: string, message: string): ReplyMessage {
  return { type: 'reply', id, ok: false, error: { code, message } };
}

/** Registers the call channel; returns the function that removes it. */
export function registerContract(
  ipcMain: IpcMainLike,
  app: Pick<Application, 'handlers'>,
  isTrusted: IsTrustedSender,
): () => void {
  ipcMain.handle(CALL_CHANNEL, async (event, message): Promise<ReplyMessage> => {
    const parsed = CallMessage.safeParse(message);
    const id = parsed.success ? parsed.data.id : 0;
    if (!isTrusted(event)) {
      return refusal(id, 'untrusted_sender', 'This frame may not call LabelDesk.');
    }
    if (!parsed.success) {
      return refusal(id, 'invalid_message', 'The message is not a LabelDesk call.');
    }
    return dispatchCall(app.handlers, parsed.data.id, parsed.data.name, parsed.data.input);
  });
  return () => ipcMain.removeHandler(CALL_CHANNEL);
}

/** A window's web contents, as far as pushing events goes. */
export interface EventTargetLike {
  isDestroyed(): boolean;
  send(channel: string, message: EventMessage): void;
}

/** Sends every application event to the windows `targets()` lists; returns the unsubscribe. */
export function forwardEvents(
  app: Pick<Application, 'onEvent'>,
  targets: () => Iterable<EventTargetLike>,
): () => void {
  return app.onEvent((name, payload) => {
    const message: EventMessage = { type: 'event', name, payload };
    for (const target of targets()) {
      if (!target.isDestroyed()) target.send(EVENT_CHANNEL, message);
    }
  });
}

/**
 * Hands a keyboard registry command from the desktop menu to one window's page (the
 * `menu.command` event): the screen that binds the command runs it as its key would.
 */
export function sendMenuCommand(target: EventTargetLike | undefined, id: string): void {
  if (!target || target.isDestroyed()) return;
  target.send(EVENT_CHANNEL, { type: 'event', name: 'menu.command', payload: { id } });
}
