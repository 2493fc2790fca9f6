/**
 * Which passwords a person may choose: at least 8 characters, not blank, not their
 * username, and not easy to guess as zxcvbn estimates it (score 3 of 4 or better: common
 * passwords, keyboard walks, repeats, dates and the username inside it all lower the
 * score). The estimator loads on first use (about 50 ms) and looks at the first 64
 * characters, which bounds its cost on the event loop.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import type * as Core from "@zxcvbn-ts/core";
import type * as Common from "@zxcvbn-ts/language-common";
import type * as English from "@zxcvbn-ts/language-en/dist/translations.mjs";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
/** Characters the estimator reads; a longer password is at least as strong as its start. */
const ESTIMATED_LENGTH = 64;
const MIN_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

/**
 * require(): the dictionaries are large arrays built when their module is evaluated, a
 * good part of the server's start-up if imported; they load with the first password.
 */
function load(): ZxcvbnFactory {
  const { ZxcvbnFactory } = require("@zxcvbn-ts/core") as typeof Core;
  const { adjacencyGraphs, dictionary } = require("@zxcvbn-ts/language-common") as typeof Common;
  const translations = (require("@zxcvbn-ts/language-en/dist/translations.mjs") as typeof English).default;
  return new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, translations, maxLength: ESTIMATED_LENGTH });
}

/** Why `password` is refused for `username`, or null when it is acceptable. */
export function passwordProblem(password: string, username: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    return `Must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`;
  if (password.trim() === "") return "Must not be blank.";
  if (password.trim().toLowerCase() === username.toLowerCase()) return "Must not be your username.";
  estimator ??= load();
  const r = estimator.check(password, [username]);
  if (r.score >= MIN_SCORE) return null;
  const why = [r.feedback.warning, ...r.feedback.suggestions].filter(Boolean).join(" ");
  return `Too easy to guess.${why ? ` ${why}` : ""}`;
}
