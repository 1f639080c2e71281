// Worker-thread entry (dist/engineWorker.js): the VS Code extension's engine thread
// (server/engineThread.ts). It lives on the CLI's side because the editor's socket serves the same
// commands as `cairn serve`: the CLI hands the server its command runner, as `cairn serve` does.
import { parentPort } from 'node:worker_threads';
import { serveEngineThread } from '../server/engineThread';
import { runServedCommand } from './run';

if (!parentPort) throw new Error('engineWorker must run in a worker thread');
serveEngineThread(parentPort, runServedCommand);
