/**
 * A role's server-wide permissions as checkboxes, for the role editor (RoleList): the
 * permissions Parley honours by their readable names (names.ts, the one list), pre-checked
 * from the role's bit field. A permission the person does not hold is not theirs to give
 * (settings/rank.ts): its box is disabled unless the role had it, as taking one away is
 * allowed. The server decides again; its refusal is shown by the form around this.
 */
import { PERMISSIONS } from "../names";

/** The names (people's API) of the listed permissions a decimal bit field holds. */
export function permissionNames(bits: string): Set<string> {
  const n = BigInt(bits || "0");
  return new Set(PERMISSIONS.filter((p) => (n & BigInt(p.bit)) !== 0n).map((p) => p.name));
}

/**
 * The bit field to send: the checked permissions, plus whatever bits of `current` the
 * list does not show, so a bit this page has no checkbox for is never dropped by a save.
 */
export function permissionBitsOf(checked: Set<string>, current: string): string {
  let n = BigInt(current || "0");
  for (const p of PERMISSIONS) n = checked.has(p.name) ? n | BigInt(p.bit) : n & ~BigInt(p.bit);
  return n.toString();
}

/** Why some boxes are disabled. */
export const NOT_HELD = "Only permissions you hold are yours to give.";

/**
 * The checkboxes, each inside its label (no ids to keep unique beside the create form's),
 * in a plain grid: the editor sits inside a list row, whose item styling would otherwise
 * reach nested list items. The group takes a line of its own in the editor's flex form (styles.css).
 */
export function RolePermissions({
  checked,
  had = new Set(),
  grantable,
  onChange,
}: {
  checked: Set<string>;
  /** What the role held when the form opened. */
  had?: Set<string>;
  /** The bits the person may grant. */
  grantable: number;
  onChange(next: Set<string>): void;
}) {
  const toggle = (name: string, on: boolean) => {
    const next = new Set(checked);
    if (on) next.add(name);
    else next.delete(name);
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Permissions</legend>
      <div class="perm-grid">
        {PERMISSIONS.map((p) => (
          <label key={p.name} class="check">
            <input
              type="checkbox"
              checked={checked.has(p.name)}
              disabled={!(grantable & p.bit) && !had.has(p.name)}
              onChange={(e) => toggle(p.name, e.currentTarget.checked)}
            />
            {p.label}
          </label>
        ))}
      </div>
      {PERMISSIONS.some((p) => !(grantable & p.bit)) && <p class="hint">{NOT_HELD}</p>}
    </fieldset>
  );
}
