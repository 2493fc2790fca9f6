/**
 * A busy server's history for the search bench (scripts/bench/search.ts), written in bulk
 * in seconds the way servers/bulk.ts writes its channel: rows as the core would write
 * them (UUIDv7 ids in time order, one per millisecond ending now), spread over several
 * channels and authors, with words drawn as people use them: a vocabulary whose k-th
 * word is used about 1/k as often as the first (Zipf), so a common word is in most
 * messages and a rare one in a few dozen. Authors are drawn the same way (a few post
 * most). Deterministic (its own seeded generator), so every run searches the same world.
 */
import type { Store } from "../../../src/store/db";
import type { Clock } from "../../../src/core/clock";

/** A small deterministic generator (mulberry32): the same world every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka ri to mo la ne su vi po da fe gu zo hi ba ce ru mi so te".split(" ");

/** `n` distinct pronounceable words, shortest for the most used (as in real text). */
function vocabulary(n: number): string[] {
  const words: string[] = [];
  const s = SYLLABLES.length;
  for (let i = 0; words.length < n; i++) {
    let w = "";
    for (let k = i; ; k = Math.floor(k / s) - 1) {
      w += SYLLABLES[k % s];
      if (k < s) break;
    }
    words.push(w);
  }
  return words;
}

/** Draws ranks 0..n-1 with P(k) proportional to 1/(k+1): a cumulative table and a binary search. */
function zipf(n: number, rnd: () => number): () => number {
  const cum = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cum[k] = sum += 1 / (k + 1);
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface Chatter {
  words: string[];
  /** How many messages each author (by index) wrote. */
  byAuthor: number[];
}

/**
 * `count` messages over `channels` by `authors` (both drawn Zipf-like), 4 to 16 words each
 * from a vocabulary of `vocab` words. Answers the vocabulary, most used first.
 */
export function chatter(store: Store, clock: Clock, o: { channels: string[]; authors: string[]; count: number; vocab: number }): Chatter {
  const rnd = random(28);
  const words = vocabulary(o.vocab);
  const word = zipf(o.vocab, rnd);
  const author = zipf(o.authors.length, rnd);
  const byAuthor = o.authors.map(() => 0);
  const start = clock.now() - o.count;
  const insert = store.db.prepare("INSERT INTO messages (id, channel_id, author_id, type, content, created_at) VALUES (?, ?, ?, 0, ?, ?)");
  const hex = (n: number, digits: number) => Math.floor(n).toString(16).padStart(digits, "0");
  const BATCH = 50_000;
  for (let from = 0; from < o.count; from += BATCH) {
    store.write(() => {
      for (let i = from; i < Math.min(o.count, from + BATCH); i++) {
        const ms = hex(start + i, 12);
        const id = `${ms.slice(0, 8)}-${ms.slice(8)}-7000-${hex(8 + rnd() * 4, 1)}${hex(rnd() * 0x1000, 3)}-${hex(rnd() * 0x1000000, 6)}${hex(rnd() * 0x1000000, 6)}`;
        const n = 4 + Math.floor(rnd() * 13);
        const text: string[] = [];
        for (let k = 0; k < n; k++) text.push(words[word()]);
        const a = author();
        byAuthor[a]++;
        insert.run(id, o.channels[Math.floor(rnd() * o.channels.length)], o.authors[a], text.join(" "), start + i);
      }
    });
  }
  return { words, byAuthor };
}
