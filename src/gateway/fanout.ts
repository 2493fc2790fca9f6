/**
 * One delivery to the sessions that hear it: live ones by cohort (cohorts.ts), closed
 * ones into their rings for RESUME. The first delivery to an audience visits every
 * session; what it found is remembered (plans.ts), so that the next ones to the same
 * audience cost a publish per cohort while nothing about sessions or cohorts changes.
 * With the `plans` fast path off (config/fast-paths.ts), every delivery visits.
 */
import type { Cohorts } from "./cohorts";
import type { Push } from "./connection";
import type { Delivery } from "./deliveries";
import { hears } from "./intents";
import { Plans, type Plan } from "./plans";
import type { SessionRegistry } from "./registry";
import type { Session } from "./session";

export class FanOut {
  /** Null with the `plans` fast path off: nothing is remembered, every delivery visits. */
  private readonly plans: Plans | null;
  /** Deliveries that visited every session, and those that followed a plan (tests). */
  readonly counts = { visits: 0, planned: 0 };
  /** Arrays a visit fills, reused from delivery to delivery (fresh ones if a delivery starts during another: a socket closed by a send can cause a write). */
  private readonly scratch = { live: [] as Session[], ds: [] as string[], closed: [] as Session[], busy: false };

  constructor(
    private readonly registry: SessionRegistry,
    private readonly cohorts: Cohorts,
    private readonly push: Push,
    planned = true,
  ) {
    // Cohorts of one are never merged, so a plan need not look for cohorts to merge (plans.ts).
    this.plans = planned ? new Plans(cohorts.grouped) : null;
  }

  deliver(del: Delivery, now: number): void {
    const plan = del.uniform && this.plans ? this.plans.get(del, this.cohorts.version, this.cohorts.published) : null;
    if (plan) {
      this.counts.planned++;
      this.follow(del, plan, now);
    } else {
      this.counts.visits++;
      this.visit(del, now);
    }
  }

  /** The remembered way: one payload and one publish per cohort, then the closed sessions' rings. */
  private follow(del: Delivery, plan: Plan, now: number): void {
    const before = this.cohorts.published;
    let own = 0;
    for (const c of plan.cohorts) {
      const rep = c.members.values().next().value;
      // A socket closed by an earlier publish has left (and maybe emptied) its cohort.
      if (rep === undefined) continue;
      this.cohorts.publish(del.t, c, del.payload(rep), now);
      own++;
    }
    // Only its own frames went out meanwhile: its cohorts' numbering moved alike.
    if (this.cohorts.published === before + own) this.plans!.followed(plan, this.cohorts.published);
    if (!del.liveOnly) for (const s of plan.closed) this.push(s, del.t, del.payload(s), now);
  }

  /** Every session of every bot in the audience, once: and a plan of it, if it changed no cohort. */
  private visit(del: Delivery, now: number): void {
    const { scratch, push } = this;
    const mine = !scratch.busy;
    scratch.busy = true;
    const live = mine ? scratch.live : [];
    const ds = mine ? scratch.ds : [];
    const closed = mine ? scratch.closed : [];
    const version = this.cohorts.version;
    try {
      for (const bot of del.bots) {
        const sessions = this.registry.ofBot(bot);
        if (sessions === undefined) continue;
        for (const s of sessions) {
          if (!hears(s, del.intent)) continue;
          if (s.cohort) {
            live.push(s);
            ds.push(del.payload(s));
          } else if (!del.liveOnly) {
            push(s, del.t, del.payload(s), now);
            closed.push(s);
          }
        }
      }
      const sent = live.length ? this.cohorts.send(del.t, live, ds, now, del.perBot) : [];
      if (sent && this.plans && this.cohorts.version === version) this.plans.remember(del, version, sent, closed);
    } finally {
      live.length = 0;
      ds.length = 0;
      closed.length = 0;
      if (mine) scratch.busy = false;
    }
  }
}
