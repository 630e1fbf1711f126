/**
 * Running a validated call for `serve`: identical GETs in flight share one execution (coalescing), calls
 * on mirror datasets queue for a slot of each dataset they read (gate.ts), and a call that takes longer
 * than the handler timeout is abandoned with 503 `timeout` (dropped from the queue if it never ran).
 */
import type { CallResult } from '../contract/types.js';
import type { Route } from '../registry.js';
import type { PreparedCall } from '../runner.js';
import { AbortedError, Gate, type RequestAbort } from './gate.js';
import { HttpError } from './http.js';
import { gateKeys } from './routing.js';

export class Executor {
  /** Handler executions running now (possibly for requests already answered or abandoned). */
  executing = 0;
  private readonly gates = new Map<string, Gate>();
  private readonly inFlightGets = new Map<string, { result: Promise<CallResult>; waiting: number; abort: AbortController }>();

  constructor(
    private readonly execute: (call: PreparedCall) => Promise<CallResult>,
    private readonly datasetConcurrency: number,
    private readonly timeoutMs: number,
  ) {}

  /** Run the call for a request whose `abort` fires when its client goes or the server stops waiting. */
  run(call: PreparedCall, route: Route, abort: RequestAbort): Promise<CallResult> {
    // One promise settled by whichever comes first (not a race of two more promises: this runs per request).
    return new Promise<CallResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        abort.abort(); // still queued: never run it
        reject(new HttpError(503, 'timeout', `The request took longer than ${this.timeoutMs / 1000} s and was abandoned; try a narrower query.`));
      }, this.timeoutMs);
      let result: Promise<CallResult>;
      try {
        result = this.coalesced(call, route, abort);
      } catch (e) {
        result = Promise.reject(e);
      }
      result.then(
        (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  }

  /**
   * Identical GETs in flight at the same time share one execution: the answer can only be the same, and a
   * burst of dashboards asking for one mirror query then costs one query, not one each queued on the
   * dataset's connection. Credits are still charged per request.
   */
  private coalesced(call: PreparedCall, route: Route, abort: RequestAbort): Promise<CallResult> {
    // A request whose client has already gone (during `prepare`) neither starts nor joins a shared
    // execution: an 'abort' listener added to an aborted signal never fires, so `waiting` would never
    // come back to 0 and the shared query would run for nobody.
    if (abort.aborted) return Promise.reject(new AbortedError());
    // A call that reads no dataset runs at once: no gate, so no signal to make.
    if (call.method !== 'GET') return gateKeys(route).length === 0 ? this.exec(call) : this.gated(call, route, abort.signal);
    const key = `${call.path}?${new URLSearchParams(Object.entries(call.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString()}`;
    let shared = this.inFlightGets.get(key);
    if (!shared) {
      // The shared execution is abandoned only when every request waiting for it is.
      const abort = new AbortController();
      const s = { result: this.gated(call, route, abort.signal).finally(() => this.inFlightGets.delete(key)), waiting: 0, abort };
      this.inFlightGets.set(key, s);
      shared = s;
    }
    const s = shared;
    s.waiting++;
    abort.signal.addEventListener('abort', () => --s.waiting === 0 && s.abort.abort(), { once: true });
    return s.result;
  }

  /** Executions on mirror datasets wait for a slot of each dataset they read, taken in sorted order; the others run at once. */
  private gated(call: PreparedCall, route: Route, signal: AbortSignal): Promise<CallResult> {
    const keys = gateKeys(route);
    const through = (i: number): Promise<CallResult> => {
      if (i === keys.length) return this.exec(call);
      let gate = this.gates.get(keys[i]!);
      if (!gate) this.gates.set(keys[i]!, (gate = new Gate(this.datasetConcurrency)));
      return gate.run(() => through(i + 1), signal);
    };
    return through(0);
  }

  private exec(call: PreparedCall): Promise<CallResult> {
    this.executing++;
    return this.execute(call).finally(() => this.executing--);
  }
}
