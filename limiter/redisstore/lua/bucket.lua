-- Token bucket, GCRA, leaky bucket: the debt, paid back at perUs a µs.
local slack, perUs, unit, burst, inf = struct.unpack('<ddddd', ARGV[2])
inf = inf == 1
local s = redis.call('GET', KEYS[1])
local last, debt = nil, 0
if s then last, debt = struct.unpack('dd', s) end
local at = now
if last then
  if at < last then at = last end
  local el = at - last
  if debt > 0 and perUs > 0 and el > 0 then
    if el >= -fdiv(-debt, perUs) then debt = 0 else debt = debt - el * perUs end
  end
end
local ok, nxt = 0, debt
if inf then
  ok, nxt = 1, 0
elseif n <= burst and debt + n * unit <= burst * unit then
  ok, nxt = 1, debt + n * unit
end
if ok == 1 and n > 0 then
  local v = struct.pack('dd', at, nxt)
  if nxt > 0 and perUs == 0 then
    redis.call('SET', KEYS[1], v) -- never fresh again: no expiry
  else
    local ms = 1 -- fresh again after ⌈⌈debt / perUs⌉ µs / 1000⌉ ms
    if nxt > 0 then ms = -fdiv(fdiv(-nxt, perUs), 1000) end
    redis.call('SET', KEYS[1], v, 'PX', ms + slack)
  end
end
return struct.pack('<dddd', ok, at, now, nxt)
