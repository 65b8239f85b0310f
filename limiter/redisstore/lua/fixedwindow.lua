-- Fixed window: the latest instant, the window's index and its count.
local slack, limit, w = struct.unpack('<ddd', ARGV[2])
local s = redis.call('GET', KEYS[1])
local last, si, count = nil, nil, 0
if s then last, si, count = struct.unpack('ddd', s) end
local at = now
if last and at < last then at = last end
local idx = fdiv(at, w)
local same = si == idx
if not same then count = 0 end
local ok = 0
if n <= limit and (n == 0 or n <= limit - count) then
  ok, count = 1, count + n
  if n > 0 then
    local v = struct.pack('ddd', at, idx, count)
    if same then -- fresh at the window's end: the window's first write set it
      redis.call('SET', KEYS[1], v, 'KEEPTTL')
    else
      redis.call('SET', KEYS[1], v, 'PX', -fdiv(at - (idx + 1) * w, 1000) + slack)
    end
  end
end
return struct.pack('<ddddd', ok, at, now, idx, count)
