/** The portal's JSON from the people's API (docs/people-api.md): the contract's types; ids are internal UUIDs. */
import type { Application } from "../../contract";

export type { Application, InstallInfo } from "../../contract";

/** Where a privileged intent's request stands. */
export type RequestState = "approved" | "pending" | "denied" | "none";

export function requestState(a: Application, intent: string): RequestState {
  if (a.privileged_approved.includes(intent)) return "approved";
  if (a.privileged_requested.includes(intent)) return "pending";
  if (a.privileged_denied.includes(intent)) return "denied";
  return "none";
}

export const STATE_WORDS: Record<RequestState, string> = {
  approved: "Approved",
  pending: "Waiting for an administrator",
  denied: "Denied by an administrator",
  none: "Not requested",
};
