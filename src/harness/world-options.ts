/**
 * A test world's options (docs/harness.md "World options"): departures from the spec
 * that a test may ask for, for the world it seeds, on a test-mode server only. Each stays
 * until the next reset; a world that leaves one out leaves it as it is.
 */
import { Type } from "@sinclair/typebox";
import type { Core } from "../core";
import { DomainError } from "../core/errors";

export const WorldOptionsSchema = {
  /** The reference's 3-second first-response rule (reference-gaps 5.1): an interaction still pending after it expires (10062). */
  interaction_deadline: Type.Optional(Type.Boolean()),
  /** Reference DMs: a person's DM to a bot carries its text, as on the reference platform (a departure from spec 1.6). */
  reference_dms: Type.Optional(Type.Boolean()),
};

export interface WorldOptions {
  interaction_deadline?: boolean;
  reference_dms?: boolean;
}

/** Refuse the options outside test mode (400 50035 naming the field), before anything is created. */
export function checkWorldOptions(w: WorldOptions, testMode: boolean): void {
  if (testMode) return;
  for (const name of ["interaction_deadline", "reference_dms"] as const)
    if (w[name] !== undefined) throw DomainError.invalid(name, "Only a test-mode server (--harness) takes this option", "BASE_TYPE_INVALID");
}

/** Apply the options a world gives, once it is created. */
export function applyWorldOptions(core: Pick<Core, "interactions" | "dms">, w: WorldOptions): void {
  if (w.interaction_deadline !== undefined) core.interactions.setFirstResponseDeadline(w.interaction_deadline);
  if (w.reference_dms !== undefined) core.dms.setReferenceDms(w.reference_dms);
}
