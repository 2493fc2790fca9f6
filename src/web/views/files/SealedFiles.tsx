/**
 * An encrypted DM's files, opened in this browser (src/e2e/files.ts): each attachment is
 * fetched by its signed link (ciphertext, which the server only ever serves as a
 * download), its size checked before a byte is read and its SHA-256 after decrypting,
 * and only then shown by FileItem (Attachments.tsx) from a blob: URL, revoked when the
 * message leaves the page. What the sealed text calls a file decides nothing alone: a
 * picture is shown only when its bytes are a raster image within the pixel budget,
 * video and audio only of the types browsers play, and anything else is a link that
 * downloads the bytes under their name, as application/octet-stream, so that no blob:
 * URL of this origin ever renders as a page. A file that fails a check never renders:
 * "This file could not be decrypted".
 */
import { useEffect, useState } from "preact/hooks";
import { imageSize } from "image-size";
import { openFile, sealedFileSize, type SealedFile } from "../../../e2e";
import { filesOf, openedOf } from "../../dm-crypto";
import type { Attachment, Message } from "../../types";
import { FileItem, type ShownFile } from "./Attachments";

/** The server's default pixel budget (`--media-preview-pixels`): a larger picture is a link, as in server channels. */
const PREVIEW_PIXELS = 40_000_000;
/** Raster images every browser shows and none runs, by image-size's name for them. */
const PICTURES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", gif: "image/gif", webp: "image/webp" };
const PLAYED = /^(?:video\/(?:mp4|webm|ogg|quicktime)|audio\/(?:mpeg|ogg|opus|wav|x-wav|flac|x-flac|mp4|x-m4a|aac|webm))$/;

export function SealedFiles({ m }: { m: Message }) {
  if (openedOf(m)?.state !== "ok") return null; // the body says why
  const list = m.attachments ?? [];
  const files = filesOf(m);
  if (!list.length && !files.length) return null;
  // Sealed record i is attachment i: a file more or fewer than the sender sealed is not theirs.
  if (list.length !== files.length) return <p class="error e2e-note">This message's files could not be decrypted.</p>;
  return (
    <div class="attachments">
      {files.map((f, i) => (
        <SealedItem key={list[i]!.id} a={list[i]!} f={f} />
      ))}
    </div>
  );
}

type Loaded = { state: "loading" } | { state: "failed"; why: "download" | "verify" } | { state: "ok"; shown: ShownFile };

function SealedItem({ a, f }: { a: Attachment; f: SealedFile }) {
  const [now, setNow] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    setNow({ state: "loading" });
    void load(a, f).then((next) => {
      if (next.state === "ok") url = next.shown.url;
      if (live) setNow(next);
      else if (url) URL.revokeObjectURL(url);
    });
    // The decrypted bytes live as long as the message is on the page.
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [a.id, f]);
  if (now.state === "loading") return <p class="muted">Decrypting {f.name}…</p>;
  if (now.state === "failed")
    return (
      <p class="error e2e-note">
        {now.why === "download" ? "This file could not be downloaded" : "This file could not be decrypted"}: {f.name}
      </p>
    );
  return <FileItem f={now.shown} />;
}

async function load(a: Attachment, f: SealedFile): Promise<Loaded> {
  // Not the size sealed: another file than the sender's, not fetched at all.
  if (a.size !== sealedFileSize(f)) return { state: "failed", why: "verify" };
  let ciphertext: Uint8Array;
  try {
    const res = await fetch(a.url);
    if (!res.ok) return { state: "failed", why: "download" };
    ciphertext = new Uint8Array(await res.arrayBuffer());
  } catch {
    return { state: "failed", why: "download" };
  }
  const bytes = await openFile(ciphertext, f);
  if (!bytes) return { state: "failed", why: "verify" };
  const how = showAs(f, bytes);
  const url = URL.createObjectURL(new Blob([bytes], { type: how.type }));
  return { state: "ok", shown: { url, filename: f.name, alt: f.description || f.name, ...how } };
}

/** How a decrypted file is shown, judged by its bytes where it matters, and the type its blob: URL is given. */
function showAs(f: SealedFile, bytes: Uint8Array): Pick<ShownFile, "kind" | "width" | "height"> & { type: string } {
  if (f.type.startsWith("image/")) {
    try {
      const d = imageSize(bytes);
      const type = d.type ? PICTURES[d.type] : undefined;
      if (type && d.width * d.height <= PREVIEW_PIXELS) return { kind: "image", type, width: d.width, height: d.height };
    } catch {
      // Not a picture whatever it is called: a download.
    }
  }
  if (PLAYED.test(f.type)) return { kind: f.type.startsWith("video/") ? "video" : "audio", type: f.type };
  return { kind: "file", type: "application/octet-stream" };
}
