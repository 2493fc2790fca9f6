/**
 * A chosen slash command's options as fields, each labelled by the option's name:
 * text for strings, numbers for integers and numbers, a list for booleans, choices,
 * users, channels, roles and mentionables; required ones marked. Subcommands first
 * pick which. Sending runs the command.
 */
import { useState } from "preact/hooks";
import { runCommand, type RawOption } from "../actions";
import { displayName, guildOf, members, memberName } from "../state";
import type { Channel, Command, CommandOption } from "../types";

const SUB = 1;
const GROUP = 2;
const OPT = { STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };

interface Props {
  channel: Channel;
  command: Command;
  onDone(): void;
}

/** Subcommands (and groups of them) flattened to "group sub" paths. */
function paths(options: CommandOption[], prefix: string[] = []): { path: string[]; o: CommandOption }[] {
  return options.flatMap((o) =>
    o.type === GROUP ? paths(o.options ?? [], [...prefix, o.name]) : o.type === SUB ? [{ path: [...prefix, o.name], o }] : [],
  );
}

export function CommandForm({ channel, command, onDone }: Props) {
  const subs = paths(command.options);
  const [sub, setSub] = useState(subs[0]?.path.join(" ") ?? "");
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const current = subs.find((s) => s.path.join(" ") === sub);
  const fields = subs.length ? (current?.o.options ?? []) : command.options;

  async function submit(e: Event) {
    e.preventDefault();
    const missing = fields.find((o) => o.required && !values[o.name]);
    if (missing) return setError(`${missing.name} is required.`);
    let options: RawOption[] = fields
      .filter((o) => values[o.name] !== undefined && values[o.name] !== "")
      .map((o) => ({ name: o.name, value: convert(o, values[o.name]) }));
    if (current) for (const name of [...current.path].reverse()) options = [{ name, options }];
    if (await runCommand(channel.id, command, options)) onDone();
  }

  return (
    <form class="command-form" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && onDone()}>
      <header>
        <b>/{command.name}</b> <span class="muted">{command.description}</span>
      </header>
      {subs.length > 0 && (
        <div class="field">
          <label for="cmd-sub">Subcommand</label>
          <select id="cmd-sub" value={sub} onChange={(e) => setSub(e.currentTarget.value)}>
            {subs.map((s) => (
              <option key={s.path.join(" ")} value={s.path.join(" ")}>
                {s.path.join(" ")} — {s.o.description}
              </option>
            ))}
          </select>
        </div>
      )}
      {fields.map((o, i) => (
        <OptionField
          key={`${sub}:${o.name}`}
          o={o}
          channel={channel}
          value={values[o.name] ?? ""}
          first={i === 0}
          onChange={(v) => setValues({ ...values, [o.name]: v })}
        />
      ))}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="buttons">
        <button type="submit" class="primary">
          Send
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function convert(o: CommandOption, v: string): string | number | boolean {
  if (o.type === OPT.INTEGER || o.type === OPT.NUMBER) return Number(v);
  if (o.type === OPT.BOOLEAN) return v === "true";
  const choice = o.choices?.find((c) => String(c.value) === v);
  return choice ? choice.value : v;
}

interface FieldProps {
  o: CommandOption;
  channel: Channel;
  value: string;
  first: boolean;
  onChange(v: string): void;
}

function OptionField({ o, channel, value, first, onChange }: FieldProps) {
  const id = `opt-${o.name}`;
  const common = { id, "aria-required": o.required || undefined, "aria-describedby": `${id}-d`, autoFocus: first };
  const list = listFor(o, channel);
  let input;
  if (o.type === OPT.ATTACHMENT) input = <input {...common} disabled value="Attachments cannot be sent from this client" />;
  else if (list)
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{o.required ? "Choose…" : "(none)"}</option>
        {list.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
    );
  else {
    const onInput = (e: { currentTarget: HTMLInputElement }) => onChange(e.currentTarget.value);
    input =
      o.type === OPT.INTEGER || o.type === OPT.NUMBER ? (
        <input
          {...common}
          type="number"
          step={o.type === OPT.INTEGER ? 1 : "any"}
          min={o.min_value}
          max={o.max_value}
          value={value}
          onInput={onInput}
        />
      ) : (
        <input {...common} type="text" minLength={o.min_length} maxLength={o.max_length} value={value} onInput={onInput} />
      );
  }
  return (
    <div class="field">
      <span class="label-row">
        <label for={id}>{o.name}</label>
        {o.required && (
          <span class="required" aria-hidden="true" title="required">
            *
          </span>
        )}
      </span>
      {input}
      <small id={`${id}-d`} class="hint">
        {o.description}
        {o.required ? " (required)" : ""}
      </small>
    </div>
  );
}

/** The values an option may take from a list, as [value, label] pairs; null for free text or numbers. */
function listFor(o: CommandOption, channel: Channel): [string, string][] | null {
  if (o.choices?.length) return o.choices.map((c) => [String(c.value), c.name]);
  if (o.type === OPT.BOOLEAN)
    return [
      ["true", "True"],
      ["false", "False"],
    ];
  const g = channel.guild_id ? guildOf(channel.guild_id) : undefined;
  const people = (): [string, string][] =>
    channel.guild_id
      ? (members.value[channel.guild_id] ?? []).map((m) => [m.user.id, memberName(m.user.id, channel.guild_id)])
      : (channel.recipients ?? []).map((u) => [u.id, displayName(u)]);
  const roles = (): [string, string][] => (g?.roles ?? []).map((r) => [r.id, `@${r.name}`]);
  if (o.type === OPT.USER) return people();
  if (o.type === OPT.ROLE) return roles();
  if (o.type === OPT.MENTIONABLE) return [...people(), ...roles()];
  if (o.type === OPT.CHANNEL)
    return (g?.channels ?? []).filter((c) => !o.channel_types?.length || o.channel_types.includes(c.type)).map((c) => [c.id, `#${c.name}`]);
  return null;
}
