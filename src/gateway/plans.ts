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
  /** `Cohorts.published` when its cohorts were last seen not mergeable; -1 before the first look. */
  checkedAt: number;
  cohorts: readonly Cohort[];
  /** Closed (resumable) sessions that hear it: their rings record it for RESUME. */
  closed: readonly Session[];
}

export class Plans {
  constructor(
    /** Whether a visit merges cohorts (cohorts.ts, `cohorts` on); off, cohorts of one never merge and a plan holds whatever their seqs. */
    private readonly merging = true,
  ) {}

  /**
   * The plans made at `version`: any change of it ends them all, so they are dropped
   * together (and with them the cohorts and sessions they held) at the next look.
   */
  private version = -1;
  /** Weak: an audience array nobody keeps any more (a DM's) takes its plans with it. */
  private byBots = new WeakMap<readonly string[], Map<number, Plan>>();

  private at(version: number): WeakMap<readonly string[], Map<number, Plan>> {
    if (version !== this.version) {
      this.version = version;
      this.byBots = new WeakMap();
    }
    return this.byBots;
  }

  /**
   * The plan for this delivery's audience, if one holds at `version`. Not while two of its
   * cohorts share intents and seq (a frame to only some of them can realign their
   * numbering without changing any cohort): a visit merges those (cohorts.ts), where
   * following the plan would go on publishing to both. Looked at again only after frames
   * other than the plan's own were published (`published`, Cohorts.published): following
   * a plan moves all of its cohorts' numbering alike.
   */
  get(del: Delivery, version: number, published: number): Plan | null {
    const p = this.at(version).get(del.bots)?.get(keyOf(del));
    if (p === undefined) return null;
    if (p.checkedAt !== published) {
      if (this.merging && mergeable(p.cohorts)) return null;
      p.checkedAt = published;
    }
    return p;
  }

  /** The plan was followed: its own frames, published up to `published`, leave it as it was. */
  followed(p: Plan, published: number): void {
    p.checkedAt = published;
  }

  /** Remember what a fan-out reached, at `version`. */
  remember(del: Delivery, version: number, cohorts: Cohort[], closed: Session[]): void {
    const plans = this.at(version);
    let byKey = plans.get(del.bots);
    if (!byKey) plans.set(del.bots, (byKey = new Map()));
    byKey.set(keyOf(del), { checkedAt: -1, cohorts: [...cohorts], closed: [...closed] });
  }
}

const keyOf = (del: Delivery) => del.intent * 2 + (del.liveOnly ? 1 : 0);

/** Whether two cohorts share intents and seq. */
function mergeable(cs: readonly Cohort[]): boolean {
  // Pairwise for the usual few (one per intents, and the splits of bots' own frames).
  if (cs.length <= 8) {
    for (let i = 1; i < cs.length; i++)
      for (let j = 0; j < i; j++) if (cs[i].seq === cs[j].seq && cs[i].intents === cs[j].intents) return true;
    return false;
  }
  const seen = new Set<string>();
  for (const c of cs) {
    const k = `${c.intents}/${c.seq}`;
    if (seen.has(k)) return true;
    seen.add(k);
  }
  return false;
}
