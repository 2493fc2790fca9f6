/**
 * How easy a key backup's passphrase is to guess, judged in the browser (the server must
 * never see it) by the rule the server applies to passwords (src/core/passwords.ts):
 * zxcvbn with the common dictionaries and English feedback, the person's username given
 * as their own input, the first 64 characters read, and a score of at least 3 of 4.
 * test/unit/strength.test.ts holds the two to the same verdicts. The estimator is in the
 * page (about 36 KB); its dictionaries (about 400 KB) are fetched from this server the
 * first time a passphrase is checked (web/index.ts serves them), so no other page pays.
 */
import { ZxcvbnFactory, type OptionsType } from "@zxcvbn-ts/core";
import translations from "@zxcvbn-ts/language-en/dist/translations.mjs";
import { DICTIONARIES_PATH } from "./paths";

/** As for passwords: what the estimator reads, and the score it must reach. */
const ESTIMATED_LENGTH = 64;
const MIN_SCORE = 3;

export interface Dictionaries {
  dictionary: OptionsType["dictionary"];
  adjacencyGraphs: OptionsType["graphs"];
}

async function fetchDictionaries(): Promise<Dictionaries> {
  const res = await fetch(DICTIONARIES_PATH);
  if (!res.ok) throw new Error("The passphrase could not be checked: the server could not be reached.");
  return (await res.json()) as Dictionaries;
}

/** One estimator per source of dictionaries (the page has one: this server). */
const estimators = new Map<() => Promise<Dictionaries>, Promise<ZxcvbnFactory>>();

function load(source: () => Promise<Dictionaries>): Promise<ZxcvbnFactory> {
  let made = estimators.get(source);
  if (!made) {
    made = source().then(
      ({ dictionary, adjacencyGraphs }) =>
        new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, translations, maxLength: ESTIMATED_LENGTH }),
    );
    estimators.set(source, made);
    // A failed fetch is not remembered: the next check tries again.
    made.catch(() => estimators.delete(source));
  }
  return made;
}

/**
 * Why `secret` is too easy to guess for the person named `username`, in the words the
 * server uses for a weak password ("Too easy to guess. Repeated characters like "aaa"
 * are easy to guess. ..."), or null when it is strong enough.
 */
export async function guessProblem(
  secret: string,
  username: string,
  source: () => Promise<Dictionaries> = fetchDictionaries,
): Promise<string | null> {
  const r = (await load(source)).check(secret, [username]);
  if (r.score >= MIN_SCORE) return null;
  const why = [r.feedback.warning, ...r.feedback.suggestions].filter(Boolean).join(" ");
  return `Too easy to guess.${why ? ` ${why}` : ""}`;
}
