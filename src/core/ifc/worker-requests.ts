/** A worker's answer: the request's value, its error, or (`other`) something on the way. */
type Answer = { requestId: number; kind: string; value?: unknown; message?: string };

interface Pending<M> {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  other?: (message: M) => void;
}

/**
 * Requests to a worker answered by promise: each message goes out with a request id;
 * `done` resolves it, `error` rejects it, any other answer of that id goes to the call's
 * `other` callback (geometry chunks, progress). A worker that fails, or is ended,
 * rejects what is pending. The IFC and plan clients are both made of one.
 */
export class WorkerRequests<M extends Answer> {
  private readonly pending = new Map<number, Pending<M>>();
  private nextId = 1;
  /** Why the worker can answer nothing more (it never started): later requests fail with it at once. */
  private failure: Error | null = null;

  constructor(private readonly worker: Worker, name: string) {
    worker.onmessage = (event: MessageEvent<M>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(`The ${name} worker failed: ${event.message || 'could not start'}`);
      // No message: its script could not be fetched or was refused (network, CSP), so it will never answer.
      if (!event.message) this.failure = error;
      this.failAll(error);
    };
  }

  send(request: object, transfer: Transferable[] = [], other?: (message: M) => void): Promise<unknown> {
    const requestId = this.nextId++;
    if (this.failure) return Promise.reject(this.failure); // a dead worker would never answer
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject, other });
      this.worker.postMessage({ ...request, requestId }, transfer);
    });
  }

  dispose() {
    this.worker.terminate();
    this.failAll(new Error('The viewer has been disposed'));
  }

  private receive(message: M) {
    const pending = this.pending.get(message.requestId);
    if (!pending) return;
    if (message.kind === 'done' || message.kind === 'error') {
      this.pending.delete(message.requestId);
      if (message.kind === 'done') pending.resolve(message.value);
      else pending.reject(new Error(message.message));
    } else {
      pending.other?.(message);
    }
  }

  private failAll(error: Error) {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
