/**
 * The application layer's face to its hosts (the Electron main process, the browser-mode server
 * and the CLI): the contract's handlers, its events, media by library id, and what a host lends it.
 */
import type { FileHandle } from 'node:fs/promises';
import type { EventName, EventPayload, Handlers } from '../shared/contract/index.js';

export type MediaVariant = 'thumb' | 'file' | 'proxy';

/** A file the media routes may serve: only ever found by library id, never by a given path. */
export interface MediaFile {
  path: string;
  contentType: string;
  size: number;
  /** The file already opened and verified (a library item): read from it, then close it. */
  handle?: FileHandle;
}

export interface MediaSource {
  /**
   * The thumbnail (made on demand), the file itself, or the playable proxy of a clip (once made)
   * of a library item; undefined if unknown.
   */
  resolve(variant: MediaVariant, id: number): Promise<MediaFile | undefined>;
}

/** Native abilities a host may lend (Electron has them; browser mode does not). */
export interface HostCapabilities {
  pickFolders?(): Promise<string[]>;
  /** A file (`folder` false) or a folder to export to; null when cancelled. */
  pickSaveTarget?(folder: boolean, defaultName?: string): Promise<string | null>;
  showInFolder?(path: string): void;
}

export type EventListener = <N extends EventName>(name: N, payload: EventPayload<N>) => void;

export interface Application {
  handlers: Handlers;
  /** Subscribes to every event the application emits; returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void;
  media: MediaSource;
  close(): Promise<void>;
}

export interface ApplicationOptions {
  transport: 'electron' | 'browser' | 'in-process';
  /** Prefix of media URLs the renderer builds (`labeldesk-media://` or `/media/<token>/`). */
  mediaBase: string;
  env?: NodeJS.ProcessEnv;
  host?: HostCapabilities;
  /** better-sqlite3 built for Electron's ABI (the app), when it differs from Node's. */
  sqliteNativeBinding?: string;
  log?: (line: string) => void;
}
