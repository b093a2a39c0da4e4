import { Worker } from 'node:worker_threads';

type Pending<R> = { resolve(result: R): void; reject(error: Error): void };
type Reply<R> = { id: number; result?: R; error?: string };

/**
 * A worker thread that runs one plain-JavaScript source (run from a string, so that it needs no file
 * of its own in the build) and answers jobs in order: `{ id, ...job }` in, `{ id, result }` or
 * `{ id, error }` out. Started on first use and restarted if it dies; it never keeps a process alive
 * when no job is pending. Synthesis is synchronous WebAssembly, so it runs here and never blocks the
 * service's event loop.
 */
export class ScriptWorker<J extends object, R> {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending<R>>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly source: string,
    private readonly workerData: () => unknown,
  ) {}

  /** Jobs sent and not answered yet (the pool gives the next job to the least busy worker). */
  get busy(): number {
    return this.pending.size;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.source, { eval: true, workerData: this.workerData() });
    worker.on('message', (reply: Reply<R>) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.error !== undefined || reply.result === undefined) job.reject(new Error(reply.error ?? `${this.name} answered nothing`));
      else job.resolve(reply.result);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The ${this.name} worker stopped (exit code ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker's port again, and a ref'd
    // port keeps the process alive after everything else has closed. It is ref'd only while a job
    // is pending (a script waiting for speech must not exit under it: `run`).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Refused once closed: a warm-up still looping at shutdown must not start a worker nobody stops. */
  run(job: J): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`The ${this.name} worker is closed`));
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...job });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
