-- POST a message as the bot (env BOT_TOKEN) to the channels in env CHANNELS (comma
-- separated), in turn; each body carries a nonce unique to this thread and request.
local token = os.getenv("BOT_TOKEN")
local channels = {}
for c in string.gmatch(os.getenv("CHANNELS"), "[^,]+") do channels[#channels + 1] = c end
local threads = 0
local n = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function init(args)
  wrk.headers["Authorization"] = "Bot " .. token
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  n = n + 1
  local ch = channels[(n % #channels) + 1]
  local body = '{"content":"the quick brown fox jumps over the lazy dog, message ' .. n .. '","nonce":"w' .. tid .. "-" .. n .. '"}'
  return wrk.format("POST", "/api/v10/channels/" .. ch .. "/messages", nil, body)
end
