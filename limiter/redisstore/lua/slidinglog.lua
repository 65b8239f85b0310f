-- Sliding window log: KEYS[2] holds runs, an instant then how many units
-- were admitted at it, oldest first; KEYS[1] the latest instant and the
-- units held. A request reads the runs that expired, the runs up to the unit
-- a denial waits for (at most n), and the newest: never the whole log.
local function run(i) -- the i-th run (0-based): its instant and units, or nil
  local r = redis.call('LRANGE', KEYS[2], 2 * i, 2 * i + 1)
  if #r < 2 then return nil end
  return tonumber(r[1]), tonumber(r[2])
end

local slack, limit, w = struct.unpack('<ddd', ARGV[2])
local s = redis.call('GET', KEYS[1])
local last, total = nil, 0
if s then last, total = struct.unpack('dd', s) end
local at = now
if last and at < last then at = last end
local first, expired = 0, 0 -- the first live run, the units before it
while true do
  local e, c = run(first)
  if not e or at - e < w then break end
  expired, first = expired + c, first + 1
end
local count, ok, ek = total - expired, 0, 0
if n <= limit then
  if n > 0 and count + n > limit then
    local k, i = count + n - limit, first -- the k-th oldest live unit must expire
    while true do
      local e, c = run(i)
      k = k - c
      if k <= 0 then ek = e; break end
      i = i + 1
    end
  else
    ok = 1
  end
end
local newest = tonumber(redis.call('LINDEX', KEYS[2], -2))
if ok == 1 and n > 0 then
  if first > 0 then redis.call('LPOP', KEYS[2], 2 * first) end
  if count > 0 and newest == at then
    redis.call('LSET', KEYS[2], -1, tonumber(redis.call('LINDEX', KEYS[2], -1)) + n)
  else
    redis.call('RPUSH', KEYS[2], at, n)
  end
  count = count + n
  local ms = -fdiv(-w, 1000) + slack -- fresh when this instant leaves the window
  redis.call('SET', KEYS[1], struct.pack('dd', at, count), 'PX', ms)
  redis.call('PEXPIRE', KEYS[2], ms)
  return struct.pack('<dddddd', ok, at, now, count, ek, at)
end
if count == 0 then newest = 0 end
return struct.pack('<dddddd', ok, at, now, count, ek, newest)
