/**
 * Administration (/admin): a navigation named "Administration" with Overview, Users,
 * Registration, Servers and Privileged intents. The section is kept in the address's
 * hash (/admin#users), so a reload stays on it. Every act is also a `parley` command
 * (docs/operations.md); the server refuses anyone but an administrator.
 */
import { useEffect, useState } from "preact/hooks";
import { me } from "../../state";
import { Admin as PrivilegedIntents } from "../Admin";
import { Overview } from "./Overview";
import { Users } from "./Users";
import { Registration } from "./Registration";
import { Servers } from "./Servers";

const SECTIONS = [
  { id: "overview", label: "Overview", view: Overview },
  { id: "users", label: "Users", view: Users },
  { id: "registration", label: "Registration", view: Registration },
  { id: "servers", label: "Servers", view: Servers },
  { id: "intents", label: "Privileged intents", view: PrivilegedIntents },
];

const fromHash = () => SECTIONS.find((s) => `#${s.id}` === location.hash)?.id ?? "overview";

export function Administration() {
  const [current, setCurrent] = useState(fromHash);
  useEffect(() => {
    document.title = "Administration · Parley";
  }, []);
  if (me.value && !me.value.admin)
    return (
      <div class="admin">
        <h1>Administration</h1>
        <p>Only administrators can see this page.</p>
        {/* The first account of a new server is nobody's administrator: this says how its operator becomes one. */}
        <p class="muted">
          An administrator can make you one in their Users section; on the server's machine,{" "}
          <code>parley user admin {me.value.username}</code> does it (a new server has none until then).
        </p>
      </div>
    );
  const pick = (id: string) => {
    history.replaceState(null, "", `#${id}`);
    setCurrent(id);
  };
  const View = (SECTIONS.find((s) => s.id === current) ?? SECTIONS[0]).view;
  return (
    <div class="admin">
      <h1>Administration</h1>
      <nav aria-label="Administration" class="section-nav">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <button type="button" aria-current={s.id === current ? "page" : undefined} onClick={() => pick(s.id)}>
                {s.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {me.value?.admin && <View />}
    </div>
  );
}
