-- limiter/redisstore: the start of every decision's script, atomic in Redis.
-- Lua numbers are doubles, so every value here is an integer below 2^53:
-- instants in whole microseconds since the Unix epoch, a bucket's debt in
-- the store's reduced unit (bucketParams in script.go), counts and limits as
-- given. A key's state is one string of doubles (struct.pack), read with one
-- GET and written with one SET: parsing and formatting text cost more than
-- the commands.
--
-- KEYS[1]: the key's state; KEYS[2]: the sliding window log's runs.
-- ARGV[1]: little-endian doubles n, then now in µs (absent: the server's
-- TIME); ARGV[2]: little-endian doubles, the TTL slack in ms, then the
-- kind's parameters. Arguments and reply are packed doubles rather than
-- decimal text and a table: tonumber runs strtod on each argument, and Redis
-- converts a table reply element by element, each costing more than
-- struct.pack.
-- Reply: a string of little-endian doubles, allowed, evaluated at, now, then
-- the kind's values.
local n, now
if #ARGV[1] == 16 then
  n, now = struct.unpack('<dd', ARGV[1])
else
  n = struct.unpack('<d', ARGV[1])
  local t = redis.call('TIME')
  now = t[1] * 1000000 + t[2]
end

local function fdiv(a, b) -- floor(a / b), exact for |a| + b < 2^53, b > 0
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end
