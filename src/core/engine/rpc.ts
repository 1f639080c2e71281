// A small typed request/response protocol over a worker_threads MessagePort, so a host (the
// VS Code extension) can run engines on a worker thread and never block its own event loop.
// The API is declared once as an interface; both sides are typed from it.
import type { MessagePort, Worker } from 'node:worker_threads';

/** Methods of an RPC API: every method takes plain-data arguments and returns a promise of plain data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parameter types are checked per API through RpcHandlers
export type RpcApi<A> = { [K in keyof A]: (...args: any[]) => Promise<unknown> };

export type RpcRequest = { kind: 'request'; id: number; method: string; args: unknown[] } | { kind: 'cancel'; id: number };
export type RpcResponse =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: { name: string; message: string; code?: string } }
  | { kind: 'event'; event: string; payload: unknown };

type Endpoint = Pick<MessagePort, 'postMessage' | 'on' | 'off'> | Pick<Worker, 'postMessage' | 'on' | 'off'>;

/** Handlers receive an AbortSignal as their last argument; it fires when the caller cancels. */
export type RpcHandlers<A extends RpcApi<A>> = {
  [K in keyof A]: (...args: [...Parameters<A[K]>, AbortSignal]) => ReturnType<A[K]>;
};

/** Serves `handlers` on `port`. Returns a function that emits events to the other side. */
export function serveRpc<A extends RpcApi<A>>(port: Endpoint, handlers: RpcHandlers<A>): (event: string, payload: unknown) => void {
  const running = new Map<number, AbortController>();
  port.on('message', (msg: RpcRequest) => {
    if (msg.kind === 'cancel') {
      running.get(msg.id)?.abort(new Error('cancelled'));
      return;
    }
    if (msg.kind !== 'request') return;
    const controller = new AbortController();
    running.set(msg.id, controller);
    const handler = (handlers as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>)[msg.method];
    const reply = (r: RpcResponse) => {
      running.delete(msg.id);
      port.postMessage(r);
    };
    if (!handler) {
      reply({ kind: 'response', id: msg.id, ok: false, error: { name: 'Error', message: `unknown method ${msg.method}` } });
      return;
    }
    Promise.resolve()
      .then(() => handler(...msg.args, controller.signal))
      .then(
        (result) => reply({ kind: 'response', id: msg.id, ok: true, result }),
        (e: unknown) => {
          const err = e instanceof Error ? e : new Error(String(e));
          reply({ kind: 'response', id: msg.id, ok: false, error: { name: err.name, message: err.message, code: (err as { code?: string }).code } });
        },
      );
  });
  return (event, payload) => port.postMessage({ kind: 'event', event, payload } satisfies RpcResponse);
}

export class RpcError extends Error {
  constructor(
    message: string,
    readonly remoteName: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcClient<A extends RpcApi<A>> {
  /** Calls a method; `signal` cancels it on the other side. */
  call<K extends keyof A & string>(method: K, args: Parameters<A[K]>, signal?: AbortSignal): ReturnType<A[K]>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** Rejects all pending calls (e.g. when the worker died). */
  failAll(error: Error): void;
  dispose(): void;
}

export function rpcClient<A extends RpcApi<A>>(port: Endpoint): RpcClient<A> {
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const onMessage = (msg: RpcResponse) => {
    if (msg.kind === 'event') {
      for (const l of listeners) l(msg.event, msg.payload);
      return;
    }
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new RpcError(msg.error.message, msg.error.name, msg.error.code));
  };
  port.on('message', onMessage);
  return {
    call(method, args, signal) {
      const id = nextId++;
      const promise = new Promise<unknown>((resolve, reject) => {
        if (signal?.aborted) {
          reject(new Error('cancelled'));
          return;
        }
        pending.set(id, { resolve, reject });
        signal?.addEventListener('abort', () => port.postMessage({ kind: 'cancel', id } satisfies RpcRequest), { once: true });
        port.postMessage({ kind: 'request', id, method, args } satisfies RpcRequest);
      });
      return promise as ReturnType<A[typeof method]>;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    failAll(error) {
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    },
    dispose() {
      port.off('message', onMessage);
      pending.clear();
      listeners.clear();
    },
  };
}
