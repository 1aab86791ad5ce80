// The preload exposes a small named surface; the desktop UI contract arrives with the UI issue.
import { contextBridge } from 'electron';
import { APP_NAME } from '../shared/app-info.js';

contextBridge.exposeInMainWorld('labeldesk', Object.freeze({ appName: APP_NAME }));
