/**
 * A strict fake of the live backend, injected through the context (Context.liveBackend), in the manner
 * of the GitHub CLI's httpmock.Registry: a test registers the requests it expects with their answers;
 * any other request fails the test at once, and `verify()` fails when a registered one was not made.
 */
import type { Backend } from '../../src/backends/types.js';
import type { CallResult, HttpMethod, RouteCall } from '../../src/contract/types.js';
import type { LiveFactoryOptions } from '../../src/context.js';

interface Stub {
  method: HttpMethod;
  path: string;
  reply: (call: RouteCall) => CallResult;
  used: boolean;
}

export class FakeLive {
  /** Every request made, in order (whether expected or not). */
  readonly requests: RouteCall[] = [];
  /** The options the CLI built the live client with (never printed: they hold the key). */
  readonly built: LiveFactoryOptions[] = [];
  private stubs: Stub[] = [];

  /** Expect one request and answer it. */
  register(method: HttpMethod, path: string, reply: (call: RouteCall) => CallResult): this {
    this.stubs.push({ method, path, reply, used: false });
    return this;
  }

  /** The factory to pass as `liveBackend` (test/support/cli.ts RunOptions). */
  readonly factory = async (opts: LiveFactoryOptions): Promise<Backend> => {
    this.built.push(opts);
    return {
      kind: 'live',
      call: async (call: RouteCall): Promise<CallResult> => {
        this.requests.push(call);
        const stub = this.stubs.find((s) => !s.used && s.method === call.method && s.path === call.path);
        if (!stub) throw new Error(`FakeLive: unexpected request ${call.method} ${call.path} ${JSON.stringify(call.query)} ${JSON.stringify(call.body ?? null)}`);
        stub.used = true;
        return stub.reply(call);
      },
    };
  };

  /** Fails when a registered request was not made. */
  verify(): void {
    const missing = this.stubs.filter((s) => !s.used);
    if (missing.length) throw new Error(`FakeLive: expected requests not made: ${missing.map((s) => `${s.method} ${s.path}`).join(', ')}`);
  }
}
