/**
 * A message's files (issue 31): pictures inline as `img` whose alternative text is the
 * description or the filename (a button opens them larger in a dialog "Image"), video
 * and audio with their controls, anything else a link named by its filename, which the
 * server serves as a download. The server decides what is safe inline (`inline`): an
 * image past the pixel budget is only a link. An encrypted DM's files are shown by the
 * same FileItem once this browser has decrypted them (SealedFiles.tsx).
 */
import { useState } from "preact/hooks";
import { useModal } from "../modal";
import type { Attachment } from "../../types";

/** A file as it is shown: where its bytes are, its name, and how it is shown. */
export interface ShownFile {
  url: string;
  filename: string;
  /** The description, else the filename. */
  alt: string;
  kind: "image" | "video" | "audio" | "file";
  width?: number | null;
  height?: number | null;
}

export function Attachments({ list }: { list: Attachment[] | undefined }) {
  if (!list?.length) return null;
  return (
    <div class="attachments">
      {list.map((a) => (
        <FileItem key={a.id} f={shownOf(a)} />
      ))}
    </div>
  );
}

function shownOf(a: Attachment): ShownFile {
  const kind = (["image", "video", "audio"] as const).find((k) => a.inline && a.content_type.startsWith(`${k}/`)) ?? "file";
  return { url: a.url, filename: a.filename, alt: a.description || a.filename, kind, width: a.width, height: a.height };
}

export function FileItem({ f }: { f: ShownFile }) {
  const [open, setOpen] = useState(false);
  if (f.kind === "image") {
    return (
      <>
        <button type="button" class="image-open" aria-label={`Open ${f.alt}`} onClick={() => setOpen(true)}>
          <img src={f.url} alt={f.alt} width={f.width ?? undefined} height={f.height ?? undefined} loading="lazy" />
        </button>
        {open && <ImageDialog f={f} onClose={() => setOpen(false)} />}
      </>
    );
  }
  // A person's upload comes with no caption file to offer; its description names it.
  if (f.kind === "video")
    // biome-ignore lint/a11y/useMediaCaption: an upload has no captions to give (see above)
    return <video class="attachment-video" src={f.url} controls preload="metadata" aria-label={f.alt} />;
  if (f.kind === "audio")
    // biome-ignore lint/a11y/useMediaCaption: an upload has no captions to give (see above)
    return <audio src={f.url} controls preload="metadata" aria-label={f.alt} />;
  return (
    <a class="attachment-file" href={f.url} download={f.filename}>
      {f.filename}
    </a>
  );
}

/**
 * The picture larger, in a modal dialog "Image" (views/modal.ts, as every dialog): the page
 * behind is out of reach while it is open, Escape and Close close it, and focus returns to
 * the button that opened it.
 */
function ImageDialog({ f, onClose }: { f: ShownFile; onClose(): void }) {
  const modal = useModal(onClose);
  return (
    <dialog ref={modal.ref} class="image-dialog" aria-label="Image">
      <img src={f.url} alt={f.alt} />
      <a href={f.url} download={f.filename}>
        Download {f.filename}
      </a>
      <button type="button" onClick={() => modal.close()}>
        Close
      </button>
    </dialog>
  );
}
