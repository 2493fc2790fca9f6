/**
 * Parley's end-to-end encryption for direct messages: one scheme for every client (the
 * web client in the browser, the harness and the test SDK in Bun), written against
 * WebCrypto only. It imports nothing of Parley; the core uses its shape checks, and the
 * web client and the harness use all of it. docs/people-api.md describes the wire format
 * and docs/security.md what it protects against.
 */
export { b64u, fromB64u } from "./bytes";
export * from "./format";
export { generateDeviceKeys, publicKeysOf, commonCurve, type DeviceKeys, type PublicKeys } from "./keys";
export { sealMessage, openMessage, type DeviceInfo, type OwnDevice, type MessageContext, type Opened } from "./messages";
export { pad, unpad, padBlock, unpadBlock, KIND_TEXT, KIND_FILES } from "./padding";
export {
  padContent,
  unpadContent,
  cleanFileName,
  cleanFileType,
  MAX_FILES,
  MAX_FILE_DESCRIPTION,
  type MessageContent,
  type SealedFile,
} from "./content";
export { sealFile, openFile, sealedFileSize, SEALED_FILE_NAME, SEALED_FILE_TYPE, FILE_TAG_BYTES } from "./files";
export { deviceFingerprint, safetyNumber } from "./fingerprint";
export * from "./trust";
export { createBackup, openBackup, backupProblem, BACKUP_VERSION, MIN_PASSPHRASE } from "./backup";
