/**
 * Files in the composer (issue 31): the "Attach files" button (a hidden file input),
 * paste and drop, and the tray of pending files, each with "Remove <filename>", a
 * `progressbar` "Uploading <filename>" while its bytes go, and "Description for
 * <filename>" (the alt text of an image). The composer takes all of it from one hook,
 * useAttachments, in a few lines.
 */
import { useMemo, useRef } from "preact/hooks";
import type { JSX } from "preact";
import { Uploads, MAX_FILES, type PendingFile } from "../../uploads";
import { showNotice } from "../../state";
import type { SealedFile } from "../../../e2e";

export interface Attachments {
  /** The tray, shown above the textbox when files are pending. */
  tray: JSX.Element | null;
  /** The "Attach files" button, beside the textbox. */
  button: JSX.Element;
  /** Handlers for the composer: files pasted or dropped are attached. */
  onPaste(e: ClipboardEvent): void;
  onDrop(e: DragEvent): void;
  onDragOver(e: DragEvent): void;
  /** Files named in the next message, and whether any are still on their way. */
  ready(): { upload_id: string; description?: string }[];
  /** In an encrypted DM: each ready() file's key and facts, for the sealed message. */
  sealed(): SealedFile[];
  readonly count: number;
  readonly busy: boolean;
  clear(): void;
}

/**
 * `encrypted`: an end-to-end encrypted DM, whose files are encrypted before they are uploaded (uploads.ts).
 * `refused`: why the person may not attach files in this channel (null: they may); then there is
 * no "Attach files", and a file pasted or dropped is not uploaded only to be refused: the notice says why.
 */
export function useAttachments(channelId: string, encrypted: boolean, refused: string | null = null): Attachments {
  const uploads = useMemo(() => new Uploads(channelId, encrypted), [channelId, encrypted]);
  const input = useRef<HTMLInputElement>(null);
  const files = uploads.files.value;
  const add = (list: File[]) => {
    const why = refused ?? uploads.add(list);
    if (why) showNotice(why);
  };
  const fromTransfer = (d: DataTransfer | null) => (d ? Array.from(d.files) : []);
  return {
    tray: files.length ? <Tray uploads={uploads} files={files} /> : null,
    button: refused ? (
      <></>
    ) : (
      <>
        <button type="button" class="attach" onClick={() => input.current?.click()} disabled={files.length >= MAX_FILES}>
          Attach files
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-hidden="true"
          tabIndex={-1}
          onChange={(e) => {
            add(Array.from(e.currentTarget.files ?? []));
            e.currentTarget.value = "";
          }}
        />
      </>
    ),
    onPaste(e) {
      const list = fromTransfer(e.clipboardData);
      if (!list.length) return;
      e.preventDefault();
      add(list);
    },
    onDrop(e) {
      const list = fromTransfer(e.dataTransfer);
      if (!list.length) return;
      e.preventDefault();
      add(list);
    },
    onDragOver(e) {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    },
    ready: () => uploads.ready(),
    sealed: () => uploads.sealed(),
    count: files.length,
    busy: uploads.busy,
    clear: () => uploads.clear(),
  };
}

function Tray({ uploads, files }: { uploads: Uploads; files: PendingFile[] }) {
  return (
    <ul class="attach-tray" aria-label="Files to send">
      {files.map((f) => (
        <li key={f.key} class={`pending-file ${f.state}`}>
          {f.preview ? <img class="thumb" src={f.preview} alt="" /> : <span class="thumb file-icon" aria-hidden="true" />}
          <span class="name">{f.file.name}</span>
          {(f.state === "asking" || f.state === "uploading") && (
            <progress aria-label={`Uploading ${f.file.name}`} max={1} value={f.state === "asking" ? undefined : f.progress} />
          )}
          {f.state === "failed" && <span role="alert">{f.error}</span>}
          <input
            type="text"
            class="description"
            aria-label={`Description for ${f.file.name}`}
            placeholder="Description (optional)"
            maxLength={1024}
            value={f.description}
            onInput={(e) => uploads.describe(f.key, e.currentTarget.value)}
          />
          <button type="button" aria-label={`Remove ${f.file.name}`} onClick={() => uploads.remove(f.key)}>
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
