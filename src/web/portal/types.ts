/** The portal's JSON from the people's API (docs/people-api.md); ids are internal UUIDs. */
import type { User } from "../types";

export interface Application {
  id: string;
  name: string;
  description: string;
  owner_id: string;
  bot_user_id: string;
  intents: string[];
  granted_intents: string[];
  token_intents: string[];
  privileged_requested: string[];
  privileged_approved: string[];
  privileged_denied: string[];
  public_key: string;
  interactions_endpoint_url: string | null;
  install_url: string;
  token_version: number;
  guilds: { id: string; name: string }[];
  created_at: string;
  /** In administrators' lists only. */
  owner?: User | null;
}

export interface InstallInfo {
  id: string;
  name: string;
  description: string;
  bot_user_id: string;
}

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
