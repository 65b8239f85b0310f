-- limiter/redisstore: the start of every decision's script, atomic in Redis.
-- Lua numbers are doubles, so every value here is an integer below 2^53:
-- instants in whole microseconds since the Unix epoch, a bucket's debt in
-- the store's reduced unit (bucketParams in script.go), counts and limits as
-- given. A key's state is one string of doubles (struct.pack), read with one
-- GET and written with one SET: parsing and formatting text cost more than
-- the commands.
--
-- KEYS[1]: the key's state; KEYS[2]: the sliding window log's runs.
-- ARGV: kind, n, now in µs ('' reads the server's TIME), TTL slack in ms,
-- then the kind's parameters. Reply: {allowed, evaluated at, now, then the
-- kind's values}.
local n, slack, now = tonumber(ARGV[2]), tonumber(ARGV[4]), tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end

local function fdiv(a, b) -- floor(a / b), exact for |a| + b < 2^53, b > 0
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end
