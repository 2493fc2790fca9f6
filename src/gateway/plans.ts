/**
 * Fan-out plans: who heard a delivery, remembered for the next one to the same audience.
 *
 * A guild's messages reach the same live sessions, in the same cohorts, message after
 * message. Finding them again visits every session (which bots, which of their sessions,
 * their intents, their view): about 0.2 us each, mostly waiting on memory, where sending
 * costs one publish per cohort. A plan is what one such visit found when it changed no
 * cohort: the cohorts that heard the frame whole and the closed sessions that recorded it.
 * It holds while nothing about sessions, sockets or cohorts changes (`Cohorts.version`)
 * for the same array of bots (GuildBots keeps one per guild until membership or sessions
 * change, and a new array is a new audience), the same intent and the same liveness rule.
 *
 * Only a delivery whose payload depends on nothing but a session's intents (`uniform`)
 * may follow a plan: every member of a cohort shares its intents, so one member's payload
 * is every member's.
 */
import type { Cohort } from "./cohorts";
import type { Delivery } from "./deliveries";
import type { Session } from "./session";

export interface Plan {
  version: number;
  cohorts: readonly Cohort[];
  /** Closed (resumable) sessions that hear it: their rings record it for RESUME. */
  closed: readonly Session[];
}

export class Plans {
  /** Weak: an audience array nobody keeps any more (a DM's, a guild's before a change) takes its plans with it. */
  private readonly byBots = new WeakMap<readonly string[], Map<number, Plan>>();

  /** The plan for this delivery's audience, if one holds at `version`. */
  get(del: Delivery, version: number): Plan | null {
    const p = this.byBots.get(del.bots)?.get(keyOf(del));
    return p !== undefined && p.version === version ? p : null;
  }

  /**
   * Remember what a fan-out reached. Not when two of its cohorts share intents and seq:
   * a delivery that sends them one payload would merge them (cohorts.ts), and a plan
   * would keep publishing to both.
   */
  remember(del: Delivery, version: number, cohorts: Cohort[], closed: Session[]): void {
    const seen = new Set<string>();
    for (const c of cohorts) {
      const k = `${c.intents}/${c.seq}`;
      if (seen.has(k)) return;
      seen.add(k);
    }
    let byKey = this.byBots.get(del.bots);
    if (!byKey) this.byBots.set(del.bots, (byKey = new Map()));
    byKey.set(keyOf(del), { version, cohorts: [...cohorts], closed: [...closed] });
  }
}

const keyOf = (del: Delivery) => del.intent * 2 + (del.liveOnly ? 1 : 0);
