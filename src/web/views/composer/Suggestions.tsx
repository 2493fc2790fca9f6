/**
 * What the composer's textbox offers as one types (commands after `/`, people and roles
 * after `@`, emoji after `:`): a `listbox` the textbox controls and points into with
 * `aria-activedescendant` (the WAI-ARIA APG combobox pattern). Focus stays in the
 * textbox, which takes the arrow keys, Enter, Tab and Escape for the list; a click on an
 * option picks it too, without taking focus from the textbox.
 */
import type { ComponentChildren } from "preact";

export interface Suggestion {
  /** The option's element id: what the textbox's `aria-activedescendant` names. */
  id: string;
  /** Its accessible name, where its text is not (emoji: ":name:"). */
  label?: string;
  children: ComponentChildren;
}

interface Props {
  id: string;
  label: string;
  options: Suggestion[];
  active: number;
  onPick(index: number): void;
}

export function Suggestions({ id, label, options, active, onPick }: Props) {
  return (
    <div id={id} class="commands" role="listbox" aria-label={label}>
      {options.map((o, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: never focused; the textbox has the keys (see above)
        <div
          key={o.id}
          id={o.id}
          role="option"
          aria-label={o.label}
          aria-selected={i === active}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(i)}
        >
          {o.children}
        </div>
      ))}
    </div>
  );
}
