/**
 * A message's files (issue 31): pictures inline as `img` whose alternative text is the
 * description or the filename (a button opens them larger in a dialog "Image"), video
 * and audio with their controls, anything else a link named by its filename, which the
 * server serves as a download. The server decides what is safe inline (`inline`): an
 * image past the pixel budget is only a link.
 */
import { useEffect, useRef, useState } from "preact/hooks";
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
        {open && <ImageDialog a={a} alt={alt} onClose={() => setOpen(false)} />}
      </>
    );
  }
  // A person's upload comes with no caption file to offer; its description names it.
  if (a.inline && a.content_type.startsWith("video/"))
    // biome-ignore lint/a11y/useMediaCaption: an upload has no captions to give (see above)
    return <video class="attachment-video" src={a.url} controls preload="metadata" aria-label={alt} />;
  if (a.inline && a.content_type.startsWith("audio/"))
    // biome-ignore lint/a11y/useMediaCaption: an upload has no captions to give (see above)
    return <audio src={a.url} controls preload="metadata" aria-label={alt} />;
  return (
    <a class="attachment-file" href={a.url} download={a.filename}>
      {a.filename}
    </a>
  );
}

/**
 * The picture larger, in a modal dialog "Image": the page behind is out of reach while it
 * is open, Escape closes it, and focus returns to the button that opened it.
 */
function ImageDialog({ a, alt, onClose }: { a: Attachment; alt: string; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.open && d.close();
  }, []);
  return (
    // Closed by the browser (Escape) or by Close, it gives focus back before it leaves the page.
    <dialog ref={ref} class="image-dialog" aria-label="Image" onClose={onClose}>
      <img src={a.url} alt={alt} />
      <a href={a.url} download={a.filename}>
        Download {a.filename}
      </a>
      <button type="button" onClick={() => ref.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
