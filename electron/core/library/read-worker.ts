/** Worker thread entry of the read pool: reads each batch of files it is sent (read-files.ts). */
import { parentPort } from 'node:worker_threads';
import { type FileToRead, readFiles } from './read-files.js';
import { toWire } from './read-wire.js';

const port = parentPort;
if (!port) throw new Error('read-worker must run in a worker thread');
port.on('message', (req: { id: number; files: FileToRead[] }) => {
  port.postMessage({ id: req.id, results: readFiles(req.files).map(toWire) });
});
