/** Small hooks the pages share. */
import { useLayoutEffect, useRef } from "preact/hooks";

/**
 * Run `apply` when `key` changes, never on the first render, in the commit that shows the
 * change. A form that follows the server's values (another moderator's edit) uses it: a
 * passive effect would also run once on mount, a frame late, and put back over anything
 * the person changed in that frame.
 */
export function useOnChange(key: unknown, apply: () => void): void {
  const last = useRef(key);
  useLayoutEffect(() => {
    if (Object.is(last.current, key)) return;
    last.current = key;
    apply();
  });
}
