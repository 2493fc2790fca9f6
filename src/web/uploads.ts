/**
 * A message's files as the composer holds them before sending (issue 31): each is asked
 * for (a slot, so the server refuses sizes and counts before any byte), then its bytes
 * are PUT with an XMLHttpRequest, whose upload progress fetch cannot report. Removing a
 * file aborts its upload and gives its slot back; sending names the slots.
 *
 * In an encrypted DM each file is first encrypted here (src/e2e/files.ts) and uploaded as
 * `file.bin` of that size: the server sees neither its bytes, nor its name, nor its type,
 * nor its description, which go into the message's sealed text instead (sealed()).
 */
import { signal, type Signal } from "@preact/signals";
import { api, ApiError, refusalText, storedToken } from "./api";
import { SEALED_FILE_NAME, SEALED_FILE_TYPE, sealFile, type SealedFile } from "../e2e";

/** The reference's limit, which the server also holds to. */
export const MAX_FILES = 10;

export interface PendingFile {
  /** Local key (a file may be added before its slot exists). */
  key: string;
  file: File;
  description: string;
  /** 0..1 while uploading. */
  progress: number;
  state: "asking" | "uploading" | "ready" | "failed";
  error?: string;
  uploadId?: string;
  xhr?: XMLHttpRequest;
  /** A local preview for images (revoked when the file goes). */
  preview?: string;
  /** In an encrypted DM, once encrypted: its key and facts (the description is added when it is sent). */
  sealed?: SealedFile;
}

let counter = 0;

export class Uploads {
  readonly files: Signal<PendingFile[]> = signal([]);

  /** `encrypted`: an end-to-end encrypted DM, whose files are encrypted before they leave. */
  constructor(
    private readonly channelId: string,
    private readonly encrypted = false,
  ) {}

  get busy(): boolean {
    return this.files.value.some((f) => f.state === "asking" || f.state === "uploading");
  }

  /** Add files (from the chooser, a paste or a drop), at most MAX_FILES in all; answers a refusal to show, if any. */
  add(list: File[]): string | null {
    const room = MAX_FILES - this.files.value.length;
    const taken = list.slice(0, Math.max(0, room));
    if (!taken.length) return list.length ? `At most ${MAX_FILES} files can be sent at once.` : null;
    const added = taken.map<PendingFile>((file) => ({
      key: `f${++counter}`,
      file,
      description: "",
      progress: 0,
      state: "asking",
      preview: file.type.startsWith("image/") ? URL.createObjectURL(file) : undefined,
    }));
    this.files.value = [...this.files.value, ...added];
    void this.open(added);
    return taken.length < list.length ? `At most ${MAX_FILES} files can be sent at once.` : null;
  }

  private patch(key: string, change: Partial<PendingFile>): void {
    this.files.value = this.files.value.map((f) => (f.key === key ? { ...f, ...change } : f));
  }

  private async open(added: PendingFile[]): Promise<void> {
    let bodies: Blob[];
    try {
      bodies = this.encrypted ? await Promise.all(added.map((f) => this.seal(f))) : added.map((f) => f.file);
    } catch {
      for (const f of added) this.patch(f.key, { state: "failed", error: "The file could not be read to encrypt it" });
      return;
    }
    try {
      const slots = await api<{ id: string; upload_url: string }[]>("POST", `/channels/${this.channelId}/attachments`, {
        files: added.map((f, i) => ({ filename: this.encrypted ? SEALED_FILE_NAME : f.file.name || "file", size: bodies[i]!.size })),
      });
      slots.forEach((s, i) => {
        const f = added[i]!;
        // Removed while its slot was being asked for: give the slot back at once.
        if (!this.files.value.some((x) => x.key === f.key)) return void api("DELETE", `/uploads/${s.id}`).catch(() => undefined);
        this.send(f.key, bodies[i]!, s);
      });
    } catch (e) {
      for (const f of added)
        this.patch(f.key, { state: "failed", error: e instanceof ApiError ? e.message : "The server could not be reached" });
    }
  }

  /** Encrypt a file under a key of its own: its ciphertext is what is uploaded. */
  private async seal(f: PendingFile): Promise<Blob> {
    const bytes = new Uint8Array(await f.file.arrayBuffer());
    const { ciphertext, file } = await sealFile(bytes, { name: f.file.name || "file", type: f.file.type });
    this.patch(f.key, { sealed: file });
    return new Blob([ciphertext], { type: SEALED_FILE_TYPE });
  }

  private send(key: string, file: Blob, slot: { id: string; upload_url: string }): void {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", slot.upload_url);
    const token = storedToken();
    if (token) xhr.setRequestHeader("Authorization", `Session ${token}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => e.lengthComputable && this.patch(key, { progress: e.loaded / e.total });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return this.patch(key, { state: "ready", progress: 1, xhr: undefined });
      let message = `HTTP ${xhr.status}`;
      try {
        message = refusalText(JSON.parse(xhr.responseText) as { message?: string; errors?: unknown }, xhr.status);
      } catch {
        // not JSON: the status says enough
      }
      this.patch(key, { state: "failed", error: message, xhr: undefined });
    };
    xhr.onerror = () => this.patch(key, { state: "failed", error: "The upload was interrupted", xhr: undefined });
    this.patch(key, { state: "uploading", uploadId: slot.id, xhr });
    xhr.send(file);
  }

  describe(key: string, description: string): void {
    this.patch(key, { description });
  }

  /** Take a file out: its upload stops and its slot is given back. */
  remove(key: string): void {
    const f = this.files.value.find((x) => x.key === key);
    if (!f) return;
    f.xhr?.abort();
    if (f.uploadId) void api("DELETE", `/uploads/${f.uploadId}`).catch(() => undefined);
    if (f.preview) URL.revokeObjectURL(f.preview);
    this.files.value = this.files.value.filter((x) => x.key !== key);
  }

  /** What a message names: every uploaded file, with its description (in an encrypted DM, only in sealed()). */
  ready(): { upload_id: string; description?: string }[] {
    return this.sendable().map((f) => ({
      upload_id: f.uploadId!,
      ...(f.description.trim() && !this.encrypted ? { description: f.description.trim() } : {}),
    }));
  }

  /** In an encrypted DM: what the sealed message says of each file ready(), in the same order. */
  sealed(): SealedFile[] {
    return this.sendable().map((f) => ({ ...f.sealed!, description: f.description.trim() || null }));
  }

  /** The files a message takes now: uploaded (and, in an encrypted DM, encrypted). One list, so ready() and sealed() align. */
  private sendable(): PendingFile[] {
    return this.files.value.filter((f) => f.state === "ready" && (!this.encrypted || f.sealed));
  }

  /** After sending: the slots are used, so only the local previews go. */
  clear(): void {
    for (const f of this.files.value) if (f.preview) URL.revokeObjectURL(f.preview);
    this.files.value = [];
  }
}
