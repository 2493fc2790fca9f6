/** Paths the page fetches besides the people's API, shared with the server side (index.ts) that serves them. */

/** zxcvbn's common dictionaries, for the check of a key backup's passphrase (strength.ts). */
export const DICTIONARIES_PATH = "/zxcvbn-common.json";
