/**
 * What the web client tells a person whose session ended while the page was open. The
 * live connection closes with 4001 and a reason naming why (docs/people-api.md "Close
 * codes"), so the person learns it was their password change, a removed device or the
 * administrator, not just that they were signed out. A reason this client does not know
 * (a newer server's) reads as a plain ending.
 */
export const SESSION_ENDED: Readonly<Record<string, string>> = {
  signed_out: "This session was signed out. Sign in again.",
  signed_out_everywhere: "You signed out everywhere. Sign in again.",
  revoked: "This session was revoked from another of your sessions. Sign in again.",
  password_changed: "Your password was changed, which signed out your other sessions. Sign in again with the new one.",
  device_removed: "This browser's device was removed from your account. Sign in again to set up a new one.",
  expired: "Your session expired. Sign in again.",
  password_reset: "An administrator reset your password. Sign in again with the new one.",
  disabled: "An administrator disabled your account.",
  deleted: "An administrator deleted your account.",
};

const UNKNOWN = "Your session has ended. Sign in again.";

export function sessionEndedMessage(reason: string): string {
  return Object.hasOwn(SESSION_ENDED, reason) ? SESSION_ENDED[reason] : UNKNOWN;
}
