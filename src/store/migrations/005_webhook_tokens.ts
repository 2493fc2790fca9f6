/**
 * Webhook tokens are shown again to those who may manage the webhook, as the reference
 * does (bots look their webhook up to post through it). The token is kept sealed under
 * the server key (core/crypto.ts Sealer, src/store/keyfile.ts) beside its digest, which
 * still authenticates. Webhooks made before this keep only their digest: their token
 * cannot be shown again.
 */
export const m005 = {
  version: 5,
  sql: /* sql */ `
ALTER TABLE webhooks ADD COLUMN token_sealed TEXT;
`,
};
