/**
 * Pieces the portal, install, administration and settings pages share: labelled fields
 * with their error beside them, an error line, a confirmation dialog, the token shown
 * once with Copy, and in-app links.
 */
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { ApiError } from "../api";
import { go } from "../router";
import { useModal } from "./modal";

/** What to tell the person about a failed request. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return "The server could not be reached.";
}

/** "1 channel", "4 channels", "2 categories": a count with its noun. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The message the server gave for one field of a 400, if it named that field. */
export function fieldError(e: unknown, name: string): string | undefined {
  return e instanceof ApiError ? (e.field(name) ?? undefined) : undefined;
}

/** A request's error, kept per control: `null` once it succeeds. */
export function useErrors() {
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  return {
    errors,
    set: (key: string, text: string | undefined) => setErrors((old) => ({ ...old, [key]: text })),
    clear: () => setErrors({}),
  };
}

export function ErrorLine({ id, error }: { id?: string; error?: string | null }) {
  if (!error) return null;
  return (
    <p id={id} class="error" role="alert">
      {error}
    </p>
  );
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onInput?(v: string): void;
  error?: string;
  hint?: string;
  multiline?: boolean;
  readOnly?: boolean;
  type?: "text" | "url" | "password";
  placeholder?: string;
  autoComplete?: string;
}

export function Field({
  id,
  label,
  value,
  onInput,
  error,
  hint,
  multiline,
  readOnly,
  type = "text",
  placeholder,
  autoComplete,
}: FieldProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    value,
    readOnly,
    placeholder,
    autoComplete,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    onInput: (e: Event) => onInput?.((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? <textarea rows={3} {...common} /> : <input type={type as "text"} {...common} />}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

/** A link to another page of this build, followed without a reload. */
export function Link({ href, children, class: cls }: { href: string; children: ComponentChildren; class?: string }) {
  return (
    <a
      href={href}
      class={cls}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        go(href);
      }}
    >
      {children}
    </a>
  );
}

async function copy(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (an insecure origin): the old way, from the selected field.
    input?.select();
    return document.execCommand("copy");
  }
}

/** A read-only value with a Copy button (`copyLabel` names the button when there are several). */
export function CopyField({
  id,
  label,
  value,
  copyLabel = "Copy",
  hint,
}: {
  id: string;
  label: string;
  value: string;
  copyLabel?: string;
  hint?: string;
}) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="field copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={async () => setCopied(await copy(value, input.current))}>
          {copyLabel}
        </button>
      </div>
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      <span role="status" class="hint">
        {copied === true ? "Copied." : copied === false ? "Could not copy: select the text and copy it yourself." : ""}
      </span>
    </div>
  );
}

/** A bot token, shown this once. */
export function TokenShown({ token }: { token: string }) {
  return (
    <div class="token-shown">
      <CopyField
        id="token"
        label="Token"
        value={token}
        hint="This token is shown only once: copy it now and keep it secret. If you lose it, reset it."
      />
    </div>
  );
}

interface ConfirmProps {
  title: string;
  children: ComponentChildren;
  confirm: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
  error?: string;
}

/**
 * A modal confirmation: a `dialog` named by its title, with the action and Cancel. Focus
 * starts on Cancel: what cannot be undone is not the first thing Enter does.
 */
export function Confirm({ title, children, confirm, onConfirm, onCancel, busy, error }: ConfirmProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const modal = useModal(onCancel, cancel);
  return (
    <dialog ref={modal.ref} class="confirm" aria-labelledby="confirm-title">
      <h2 id="confirm-title">{title}</h2>
      <div class="confirm-body">{children}</div>
      <ErrorLine error={error} />
      <div class="buttons">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" ref={cancel} onClick={modal.close}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
