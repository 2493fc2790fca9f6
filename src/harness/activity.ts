/**
 * Whether the bots are busy, for POST /settle: bot API requests in flight and the last
 * moment anything came from a bot (a request answered, a gateway frame received), in
 * host time: this is about the wire, not domain time, which may stand still.
 */
import type { HookRequest } from "./hooks";

export class Activity {
  private readonly inFlight = new Set<HookRequest>();
  private last = performance.now();

  /** For the bot API's hook list, first: it answers nothing, it only watches. */
  readonly requestHooks = {
    intercept: (r: HookRequest) => {
      this.inFlight.add(r);
      this.last = performance.now();
      return null;
    },
    answered: (r: HookRequest) => {
      this.inFlight.delete(r);
      this.last = performance.now();
    },
  };

  readonly gatewayHooks = {
    received: () => {
      this.last = performance.now();
    },
  };

  /** Resolves true once nothing is in flight and nothing came for `quietMs`; false after `timeoutMs` without that. */
  async quiet(quietMs: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const now = performance.now();
      const idle = now - this.last;
      if (this.inFlight.size === 0 && idle >= quietMs) return true;
      if (now >= deadline) return false;
      await new Promise((r) => setTimeout(r, Math.max(1, Math.min(quietMs - idle, deadline - now))));
    }
  }
}
