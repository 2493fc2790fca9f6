/** The tab's title: the open channel, after the unread mention count: "(3) #general · Parley". */
import { useEffect } from "preact/hooks";
import { readStates } from "./state";

export function unreadMentions(): number {
  return Object.values(readStates.value).reduce((n, r) => n + r.mention_count, 0);
}

export function useTabTitle(base: string): void {
  const n = unreadMentions();
  useEffect(() => {
    document.title = n > 0 ? `(${n}) ${base}` : base;
  }, [base, n]);
}
