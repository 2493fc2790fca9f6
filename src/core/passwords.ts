/**
 * Which passwords a person may choose: at least 8 characters, not blank, not their
 * username, and not easy to guess as zxcvbn estimates it (score 3 of 4 or better: common
 * passwords, keyboard walks, repeats, dates and the username inside it all lower the
 * score). The estimator loads on first use (about 50 ms) and looks at the first 64
 * characters, which bounds its cost on the event loop.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import translations from "@zxcvbn-ts/language-en/dist/translations.mjs";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
/** Characters the estimator reads; a longer password is at least as strong as its start. */
const ESTIMATED_LENGTH = 64;
const MIN_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

/** Why `password` is refused for `username`, or null when it is acceptable. */
export function passwordProblem(password: string, username: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    return `Must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`;
  if (password.trim() === "") return "Must not be blank.";
  if (password.trim().toLowerCase() === username.toLowerCase()) return "Must not be your username.";
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, translations, maxLength: ESTIMATED_LENGTH });
  const r = estimator.check(password, [username]);
  if (r.score >= MIN_SCORE) return null;
  const why = [r.feedback.warning, ...r.feedback.suggestions].filter(Boolean).join(" ");
  return `Too easy to guess.${why ? ` ${why}` : ""}`;
}
