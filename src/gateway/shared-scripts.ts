/**
 * The Redis scripts of the shared sessions (shared-sessions.ts, whose header says what
 * Redis holds and why), and how often a node says it is alive there.
 */

/** A node says it is alive this often, and counts as dead this long after it last did. */
export const ALIVE_EVERY_MS = 1000;
export const ALIVE_FOR_MS = 3000;

/**
 * KEYS: record, ring, per session. ARGV: node, ttl ms, ring size, the node's mark, the
 * number of distinct frames and the frames (each after its commit's number), then per
 * session: how (0: frames to add; 1: made, or written whole; 2: its first write since
 * this node claimed it), frame count, seq, bot, application, intents, and its frames as
 * indexes into the distinct ones (the members of a cohort get byte-identical frames:
 * each is sent once, not once per member). Answers the (1-based) sessions another node
 * holds now, and those whose record is gone.
 */
export const WRITE = `
local node, ttl, ring, u = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[5])
local a, lost, gone = 6 + u, {}, {}
for i = 1, #KEYS, 2 do
  local how, n = ARGV[a], tonumber(ARGV[a + 1])
  local owner = redis.call('HGET', KEYS[i], 'node')
  if owner == node or (how == '1' and not owner) then
    if how == '1' then
      redis.call('DEL', KEYS[i + 1])
      redis.call('HSET', KEYS[i], 'node', node, 'bot', ARGV[a + 3], 'app', ARGV[a + 4], 'intents', ARGV[a + 5])
    end
    if how ~= '0' then redis.call('HDEL', KEYS[i], 'cut') end
    if n > 0 then
      local frames = {}
      for k = 1, n do frames[k] = ARGV[5 + tonumber(ARGV[a + 5 + k])] end
      redis.call('RPUSH', KEYS[i + 1], unpack(frames))
      redis.call('LTRIM', KEYS[i + 1], -ring, -1)
    end
    redis.call('HSET', KEYS[i], 'seq', ARGV[a + 2])
    redis.call('PEXPIRE', KEYS[i], ttl)
    redis.call('PEXPIRE', KEYS[i + 1], ttl)
  elseif owner then
    lost[#lost + 1] = (i + 1) / 2
  else
    gone[#gone + 1] = (i + 1) / 2
  end
  a = a + 6 + n
end
redis.call('SET', 'gn:' .. node, ARGV[4], 'PX', ${ALIVE_FOR_MS})
return {lost, gone}
`;

/**
 * KEYS: record, ring. ARGV: node, bot user id, the application's grant, ttl ms. Claims
 * the session for this node when it is the bot's, its intents are still granted and the
 * node that holds it is alive (a dead node recorded nothing since it died: its ring may
 * miss frames, so the bot identifies rather than miss them unknowingly); answers
 * {application, intents, seq, cut, frames}, or 0. The cut stays on the record until
 * this node's first write for the session: should another node claim it before that,
 * the ring is still the old holder's, and so is the cut.
 */
export const CLAIM = `
local h = redis.call('HMGET', KEYS[1], 'bot', 'app', 'intents', 'seq', 'node', 'cut')
if not h[1] or h[1] ~= ARGV[2] then return 0 end
local mark = redis.call('GET', 'gn:' .. h[5])
if not mark then return 0 end
if bit.band(tonumber(h[3]), bit.bnot(tonumber(ARGV[3]))) ~= 0 then return 0 end
local cut = h[6] or mark
redis.call('HSET', KEYS[1], 'node', ARGV[1], 'cut', cut)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return {h[2], h[3], h[4] or '0', cut, redis.call('LRANGE', KEYS[2], 0, -1)}
`;

/** KEYS: record, ring. ARGV: node. The session ended here: gone from Redis too, if this node still holds it. */
export const DROP = `if redis.call('HGET', KEYS[1], 'node') == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) end return 0`;
