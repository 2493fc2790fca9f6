/** Who may sign up (a radio group "Registration": Open, Invite only, Closed), who may create servers, and sign-up invites. */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../api";
import type { InstanceInvite, NewInstanceInvite, Registration as Settings } from "../../../contract";
import { CopyField, ErrorLine, errorText } from "../ui";

const MODES: [string, string][] = [
  ["open", "Open"],
  ["invite", "Invite only"],
  ["closed", "Closed"],
];

export function Registration() {
  const [s, setS] = useState<Settings | null>(null);
  const [invites, setInvites] = useState<InstanceInvite[]>([]);
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState("");
  const loadInvites = () => api<InstanceInvite[]>("GET", "/admin/instance-invites").then(setInvites, (e) => setError(errorText(e)));
  useEffect(() => {
    void api<Settings>("GET", "/instance").then(setS, (e) => setError(errorText(e)));
    void loadInvites();
  }, []);
  async function put(patch: Partial<Settings>, done: string) {
    setError(undefined);
    try {
      setS(await api<Settings>("PUT", "/admin/registration", patch));
      setStatus(done);
    } catch (e) {
      setError(errorText(e));
    }
  }
  async function invite() {
    try {
      const made = await api<NewInstanceInvite>("POST", "/admin/instance-invites", { max_uses: 1 });
      setCode(made.code);
      setStatus("Sign-up invite created: it admits one person within 7 days.");
      await loadInvites();
    } catch (e) {
      setError(errorText(e));
    }
  }
  async function revoke(id: string) {
    try {
      await api("DELETE", `/admin/instance-invites/${id}`);
      setStatus("Sign-up invite revoked.");
      await loadInvites();
    } catch (e) {
      setError(errorText(e));
    }
  }
  if (!s) return <ErrorLine error={error} />;
  return (
    <section class="card" aria-labelledby="registration-title">
      <h2 id="registration-title">Registration</h2>
      <p role="status" class="hint">
        {status}
      </p>
      <ErrorLine error={error} />
      <WhoMaySignUp mode={s.registration} onPick={(v, label) => put({ registration: v }, `Registration is ${label.toLowerCase()}.`)} />
      <div class="field">
        <label for="guild-creation">Who may create servers</label>
        <select id="guild-creation" value={s.guild_creation} onChange={(e) => put({ guild_creation: e.currentTarget.value }, "Saved.")}>
          <option value="everyone">Everyone</option>
          <option value="admins">Administrators only</option>
        </select>
      </div>
      <h3>Sign-up invites</h3>
      <button type="button" onClick={invite}>
        Create sign-up invite
      </button>
      {code && (
        <CopyField id="signup-invite" label="Sign-up invite code" value={code} hint="Shown once: give it to the person signing up." />
      )}
      <InviteList invites={invites} onRevoke={revoke} />
    </section>
  );
}

function WhoMaySignUp({ mode, onPick }: { mode: string; onPick(mode: string, label: string): void }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows radiogroup on a fieldset of radios
    <fieldset role="radiogroup" aria-label="Registration">
      <legend>Who may sign up</legend>
      {MODES.map(([v, label]) => (
        <label key={v} class="check">
          <input type="radio" name="registration" value={v} checked={mode === v} onChange={() => onPick(v, label)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function InviteList({ invites, onRevoke }: { invites: InstanceInvite[]; onRevoke(id: string): void }) {
  return (
    <ul class="rows" aria-label="Sign-up invites">
      {invites.map((i) => (
        <li key={i.id}>
          <span class="row-name">
            Used {i.uses} of {i.max_uses || "unlimited"},{" "}
            {i.expires_at ? `until ${new Date(i.expires_at).toLocaleString()}` : "never expires"}
          </span>
          <button type="button" onClick={() => onRevoke(i.id)}>
            Revoke invite {i.id.slice(-6)}
          </button>
        </li>
      ))}
    </ul>
  );
}
