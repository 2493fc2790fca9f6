/**
 * A message's files (issue 31): pictures inline as `img` whose alternative text is the
 * description or the filename (a button opens them larger in a dialog "Image"), video
 * and audio with their controls, anything else a link named by its filename, which the
 * server serves as a download. The server decides what is safe inline (`inline`): an
 * image past the pixel budget is only a link.
 */
import { useState } from "preact/hooks";
import type { Attachment } from "../../types";

export function Attachments({ list }: { list: Attachment[] | undefined }) {
  if (!list?.length) return null;
  return (
    <div class="attachments">
      {list.map((a) => (
        <Item key={a.id} a={a} />
      ))}
    </div>
  );
}

function Item({ a }: { a: Attachment }) {
  const [open, setOpen] = useState(false);
  const alt = a.description || a.filename;
  if (a.inline && a.content_type.startsWith("image/")) {
    return (
      <>
        <button type="button" class="image-open" aria-label={`Open ${alt}`} onClick={() => setOpen(true)}>
          <img src={a.url} alt={alt} width={a.width ?? undefined} height={a.height ?? undefined} loading="lazy" />
        </button>
        {open && (
          <div
            class="image-dialog"
            role="dialog"
            aria-modal="true"
            aria-label="Image"
            onKeyDown={(e) => e.key === "Escape" && setOpen(false)}
          >
            <img src={a.url} alt={alt} />
            <a href={a.url} download={a.filename}>
              Download {a.filename}
            </a>
            <button type="button" autoFocus onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        )}
      </>
    );
  }
  if (a.inline && a.content_type.startsWith("video/"))
    return <video class="attachment-video" src={a.url} controls preload="metadata" aria-label={alt} />;
  if (a.inline && a.content_type.startsWith("audio/")) return <audio src={a.url} controls preload="metadata" aria-label={alt} />;
  return (
    <a class="attachment-file" href={a.url} download={a.filename}>
      {a.filename}
    </a>
  );
}
