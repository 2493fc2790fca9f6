/**
 * A chosen slash command's options as fields, each labelled by the option's name:
 * text for strings, numbers for integers and numbers, a list for booleans, choices,
 * users, channels, roles and mentionables, a file for attachments; required ones marked.
 * A subcommand is an entry of the `/` list of its own (composer/commands.ts), so its
 * form asks for its own options only. Sending runs the command.
 */
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { runCommand, type RawOption } from "../actions";
import { displayName, guildOf, members, memberName } from "../state";
import type { Channel, CommandOption } from "../types";
import { nest, type CommandEntry } from "./composer/commands";
import { OptionFile, type FileState } from "./composer/OptionFile";

const OPT = { STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };

interface Props {
  channel: Channel;
  entry: CommandEntry;
  onDone(): void;
}

export function CommandForm({ channel, entry, onDone }: Props) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | null>(null);
  /** Set while the command is on its way, and for good once it ran (then a chosen file is the bot's). */
  const sent = useRef(false);
  const [sending, setSending] = useState(false);
  const fields = entry.options;
  // The form stands in for the composer the person was typing in: its first field (or,
  // with none, Send) takes the focus. Not `autofocus`, which a browser honours once a page.
  const form = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    form.current?.querySelector<HTMLElement>("[id^='opt-']:not([type=file]), button[type=submit]")?.focus();
  }, []);
  const set = (name: string, v: string) => setValues((now) => ({ ...now, [name]: v }));

  async function submit(e: Event) {
    e.preventDefault();
    // A second press while the first is on its way would run the command twice.
    if (sent.current) return;
    const busy = fields.find((o) => uploading[o.name]);
    if (busy) return setError(`${busy.name} is still uploading.`);
    const missing = fields.find((o) => o.required && !values[o.name]);
    if (missing) return setError(`${missing.name} is required.`);
    const options: RawOption[] = fields
      .filter((o) => values[o.name] !== undefined && values[o.name] !== "")
      .map((o) => ({ name: o.name, value: convert(o, values[o.name]) }));
    sent.current = true;
    setSending(true);
    const ran = await runCommand(channel.id, entry.command, nest(entry.path, options));
    // A bot not connected never got the file: it is still the person's, given back as the form goes.
    sent.current = !!ran?.delivered;
    if (ran) return onDone();
    setSending(false);
  }

  return (
    <form ref={form} class="command-form" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && onDone()}>
      <header>
        <b>/{entry.label}</b> <span class="muted">{entry.description}</span>
      </header>
      {fields.map((o) =>
        o.type === OPT.ATTACHMENT ? (
          <Field key={o.name} o={o} label={false}>
            <OptionFile
              id={`opt-${o.name}`}
              name={o.name}
              channelId={channel.id}
              describedBy={`opt-${o.name}-d`}
              sent={sent}
              onChange={(s: FileState) => {
                set(o.name, s.value);
                setUploading((now) => ({ ...now, [o.name]: s.busy }));
              }}
            />
          </Field>
        ) : (
          <OptionField key={o.name} o={o} channel={channel} value={values[o.name] ?? ""} onChange={(v) => set(o.name, v)} />
        ),
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="buttons">
        <button type="submit" class="primary" aria-disabled={sending || undefined}>
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
  onChange(v: string): void;
}

function OptionField({ o, channel, value, onChange }: FieldProps) {
  const id = `opt-${o.name}`;
  const common = { id, "aria-required": o.required || undefined, "aria-describedby": `${id}-d` };
  const list = listFor(o, channel);
  let input;
  if (list)
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
    <Field o={o} label>
      {input}
    </Field>
  );
}

/** An option's row: its name (a label of its control, unless the control names itself), a required mark, its description. */
function Field({ o, label, children }: { o: CommandOption; label: boolean; children: ComponentChildren }) {
  const id = `opt-${o.name}`;
  return (
    <div class="field">
      <span class="label-row">
        {label ? <label for={id}>{o.name}</label> : <span>{o.name}</span>}
        {o.required && (
          <span class="required" aria-hidden="true" title="required">
            *
          </span>
        )}
      </span>
      {children}
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
  // @everyone is named with its @ already.
  const roles = (): [string, string][] => (g?.roles ?? []).map((r) => [r.id, r.name.startsWith("@") ? r.name : `@${r.name}`]);
  if (o.type === OPT.USER) return people();
  if (o.type === OPT.ROLE) return roles();
  if (o.type === OPT.MENTIONABLE) return [...people(), ...roles()];
  if (o.type === OPT.CHANNEL)
    return (g?.channels ?? []).filter((c) => !o.channel_types?.length || o.channel_types.includes(c.type)).map((c) => [c.id, `#${c.name}`]);
  return null;
}
