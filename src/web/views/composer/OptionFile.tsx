/**
 * A command's ATTACHMENT option in its form: the button "Choose a file for <option>" (a
 * hidden file input), then the file's name, a `progressbar` "Uploading <filename>" while
 * its bytes go and "Remove <filename>". The file is uploaded as the composer's are
 * (uploads.ts: a slot of the channel, then its bytes), and the option names the slot.
 * Never encrypted, even in an end-to-end encrypted DM: the file is for the bot to read.
 * A form left without sending gives its slot back; a command sent hands it to the bot.
 */
import { useEffect, useMemo, useRef } from "preact/hooks";
import { Uploads } from "../../uploads";

export interface FileState {
  /** The slot once its bytes are up ("" while none is). */
  value: string;
  busy: boolean;
}

interface Props {
  id: string;
  name: string;
  channelId: string;
  describedBy: string;
  /** Whether the form was sent: then the slot is the bot's and is not given back. */
  sent: { current: boolean };
  onChange(s: FileState): void;
}

export function OptionFile({ id, name, channelId, describedBy, sent, onChange }: Props) {
  const uploads = useMemo(() => new Uploads(channelId), [channelId]);
  const input = useRef<HTMLInputElement>(null);
  const f = uploads.files.value[0];
  useEffect(() => {
    onChange({ value: f?.state === "ready" ? f.uploadId! : "", busy: uploads.busy });
  }, [f?.state, f?.uploadId]);
  useEffect(
    () => () => {
      if (!sent.current) for (const x of uploads.files.value) uploads.remove(x.key);
    },
    [uploads],
  );
  const choose = (file: File | undefined) => {
    if (!file) return;
    for (const x of uploads.files.value) uploads.remove(x.key);
    uploads.add([file]);
  };
  return (
    <div class="option-file">
      <button type="button" id={id} aria-describedby={describedBy} onClick={() => input.current?.click()}>
        {f ? `Choose another file for ${name}` : `Choose a file for ${name}`}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(e) => {
          choose(e.currentTarget.files?.[0]);
          e.currentTarget.value = "";
        }}
      />
      {f && (
        <span class="chosen">
          <span>{f.file.name}</span>
          {(f.state === "asking" || f.state === "uploading") && (
            <progress aria-label={`Uploading ${f.file.name}`} max={1} value={f.progress} />
          )}
          {f.state === "failed" && (
            <span class="error" role="alert">
              {f.file.name} could not be uploaded: {f.error}
            </span>
          )}
          <button type="button" class="link" onClick={() => uploads.remove(f.key)}>
            Remove {f.file.name}
          </button>
        </span>
      )}
    </div>
  );
}
