/**
 * The harness plays each person's client for direct messages: it encrypts with
 * AES-GCM (WebCrypto) under a key per DM channel that lives only in this process's
 * memory, never in the database. The server stores the ciphertext it is given and
 * nothing else; harness reads decrypt with the same key so tests see plaintext.
 */
const VERSION = "v1";

function b64u(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

export class DmKeys {
  private keys = new Map<string, CryptoKey>();

  has(channelId: string): boolean {
    return this.keys.has(channelId);
  }

  /** A fresh key, not yet bound to a channel (the DM may not exist yet). */
  async newKey(): Promise<CryptoKey> {
    return crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  }

  keyOf(channelId: string): CryptoKey | undefined {
    return this.keys.get(channelId);
  }

  bind(channelId: string, key: CryptoKey): void {
    if (!this.keys.has(channelId)) this.keys.set(channelId, key);
  }

  async encrypt(key: CryptoKey, plaintext: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plaintext)));
    return `${VERSION}.${b64u(iv)}.${b64u(ct)}`;
  }

  /** The plaintext, or null when this harness holds no key for it (another client wrote it). */
  async decrypt(channelId: string, ciphertext: string): Promise<string | null> {
    const key = this.keys.get(channelId);
    const [v, iv, ct] = ciphertext.split(".");
    if (!key || v !== VERSION || !iv || !ct) return null;
    try {
      const pt = await crypto.subtle.decrypt({ name: "AES-GCM", iv: Buffer.from(iv, "base64url") }, key, Buffer.from(ct, "base64url"));
      return new TextDecoder().decode(pt);
    } catch {
      return null;
    }
  }

  clear(): void {
    this.keys.clear();
  }
}
