/**
 * A person's files in the harness (issue 31): bytes as base64, uploaded through the same
 * slots as the web client's (every refusal before a byte). In an end-to-end encrypted
 * DM, as the web client does, each file is first encrypted under a key of its own and
 * uploaded as `file.bin`; its key and facts go into the message's sealed text (src/e2e).
 */
import { Type, type Static } from "@sinclair/typebox";
import type { AttachmentInput, Core, Message } from "../core";
import { openFile, sealFile, SEALED_FILE_NAME, type SealedFile } from "../e2e";

export const HarnessFiles = Type.Array(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 1024 }),
      data: Type.String({ pattern: "^[A-Za-z0-9+/]*={0,2}$" }),
      description: Type.Optional(Type.String({ maxLength: 1024 })),
      spoiler: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  { maxItems: 10 },
);
export type HarnessFile = Static<typeof HarnessFiles>[number];

const bytesOf = (f: HarnessFile) => new Uint8Array(Buffer.from(f.data, "base64"));

/** Upload files to a person's slots for a channel as they are; answers what a message names. */
export async function upload(
  core: Pick<Core, "media">,
  personId: string,
  channelId: string,
  files: HarnessFile[],
): Promise<AttachmentInput[]> {
  const bytes = files.map(bytesOf);
  const slots = core.media.openAttachments(
    personId,
    channelId,
    files.map((f, i) => ({ filename: f.name, size: bytes[i]!.byteLength, description: f.description ?? null })),
  );
  for (const [i, s] of slots.entries()) await core.media.receive(personId, s.id, bytes[i]!, bytes[i]!.byteLength);
  // The message that names them waits for their bytes to be flushed, as the people's door does.
  await core.media.flushed(
    personId,
    slots.map((s) => s.id),
  );
  return slots.map((s, i) => ({ uploadId: s.id, spoiler: files[i]!.spoiler ?? false }));
}

/** Encrypt each file under a key of its own, its type from its name's extension (as a browser's file chooser gives it). */
export function sealFiles(files: HarnessFile[]): Promise<{ ciphertext: Uint8Array; file: SealedFile }[]> {
  return Promise.all(
    files.map((f) => sealFile(bytesOf(f), { name: f.name, type: Bun.file(f.name).type, description: f.description ?? null })),
  );
}

/** Upload sealed files' ciphertext under the neutral name, with no description: answers what the message names, in order. */
export async function uploadSealed(
  core: Pick<Core, "media">,
  personId: string,
  channelId: string,
  sealed: { ciphertext: Uint8Array }[],
  files: HarnessFile[],
): Promise<AttachmentInput[]> {
  const slots = core.media.openAttachments(
    personId,
    channelId,
    sealed.map((s) => ({ filename: SEALED_FILE_NAME, size: s.ciphertext.byteLength })),
  );
  for (const [i, s] of slots.entries()) await core.media.receive(personId, s.id, sealed[i]!.ciphertext, sealed[i]!.ciphertext.byteLength);
  await core.media.flushed(
    personId,
    slots.map((s) => s.id),
  );
  return slots.map((s, i) => ({ uploadId: s.id, spoiler: files[i]!.spoiler ?? false }));
}

/** A DM file as a person's client opened it: its facts, and its bytes (base64) when they decrypted and matched, else null. */
export interface OpenedFile {
  filename: string;
  content_type: string;
  size: number;
  description: string | null;
  data: string | null;
}

/** Decrypt a sealed message's files from the store, record i being attachment i (a count that differs opens none). */
export async function openFiles(core: Pick<Core, "media" | "messages">, m: Message, files: SealedFile[]): Promise<OpenedFile[]> {
  const list = core.messages.files.of(m.id);
  return Promise.all(
    files.map(async (f, i) => {
      const a = list.length === files.length ? list[i] : undefined;
      const stored = a ? core.media.open(a.sha256) : null;
      const bytes = stored ? await openFile(new Uint8Array(await stored.arrayBuffer()), f) : null;
      return {
        filename: f.name,
        content_type: f.type,
        size: f.size,
        description: f.description,
        data: bytes ? Buffer.from(bytes).toString("base64") : null,
      };
    }),
  );
}
