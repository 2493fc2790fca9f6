/**
 * detritus-client's REST, run by Node: under Bun its retries fail, since it sends the
 * same node-fetch Request again and Bun's node-fetch has consumed that body already.
 * Sends each content given (all at once), then prints one JSON line per send:
 * {"ok": true, "content"} or {"ok": false, "status"}.
 *
 * Usage: node dt_rest.cjs REST_BASE TOKEN CHANNEL_ID CONTENT...
 */
const { ShardClient } = require("detritus-client");

const [restBase, token, channelId, ...contents] = process.argv.slice(2);
const client = new ShardClient(token, { isBot: true, rest: { baseUrl: restBase }, gateway: { compress: false, intents: 0 } });

Promise.all(
  contents.map((content) =>
    client.rest.createMessage(channelId, { content }).then(
      (m) => ({ ok: true, content: m.content }),
      (e) => ({ ok: false, status: e.response ? e.response.statusCode : null, error: String(e.message) }),
    ),
  ),
).then((results) => {
  for (const r of results) console.log(JSON.stringify(r));
  process.exit(0);
});
