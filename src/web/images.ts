/**
 * Which hosts a person lets their browser load embeds' pictures from without asking
 * (docs/security.md, finding 10). Kept in this browser for each person apart, so one
 * person's choice is never another's; read again whenever who is signed in changes.
 */
import { computed, signal } from "@preact/signals";
import { me } from "./state";

const key = (userId: string) => `parley.imageHosts.${userId}`;
/** Hosts trusted in this page, by person: the list still holds if storage refuses the write. */
const added = signal<Record<string, readonly string[]>>({});

function stored(userId: string): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(key(userId)) ?? "[]") as unknown;
    return Array.isArray(v) ? v.filter((h): h is string => typeof h === "string") : [];
  } catch {
    return [];
  }
}

export const trustedHosts = computed<ReadonlySet<string>>(() => {
  const id = me.value?.id;
  return id ? new Set([...stored(id), ...(added.value[id] ?? [])]) : new Set();
});

/** Always load pictures from `host`, for the signed-in person. */
export function trustHost(host: string): void {
  const id = me.value?.id;
  if (!id) return;
  const hosts = [...new Set([...trustedHosts.value, host])];
  try {
    localStorage.setItem(key(id), JSON.stringify(hosts));
  } catch {
    // Storage refused (private mode, full): the choice lasts as long as the page.
  }
  added.value = { ...added.value, [id]: hosts };
}
