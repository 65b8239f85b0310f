-- Sliding window counter: the latest instant, the current window's index,
-- its count and the previous window's.
local B = 262144 -- 2^18: three limbs hold any integer below 2^54

local function mul(a, b)
  local a0 = a % B; local a1 = ((a - a0) / B) % B; local a2 = (a - a0 - a1 * B) / (B * B)
  local b0 = b % B; local b1 = ((b - b0) / B) % B; local b2 = (b - b0 - b1 * B) / (B * B)
  local r = {a0 * b0, a0 * b1 + a1 * b0, a0 * b2 + a1 * b1 + a2 * b0, a1 * b2 + a2 * b1, a2 * b2}
  local carry = 0
  for i = 1, 5 do
    local v = r[i] + carry
    r[i] = v % B
    carry = (v - r[i]) / B
  end
  r[6] = carry
  return r
end

local function mulLE(a, b, c, d) -- a*b <= c*d for integers in [0, 2^53)
  local x, y = a * b, c * d
  if x < 2^52 and y < 2^52 then return x <= y end -- both exact
  x, y = mul(a, b), mul(c, d)
  for i = 6, 1, -1 do
    if x[i] ~= y[i] then return x[i] < y[i] end
  end
  return true
end

local slack, limit, w = struct.unpack('<ddd', ARGV[2])
local s = redis.call('GET', KEYS[1])
local last, si, c, p = nil, nil, 0, 0
if s then last, si, c, p = struct.unpack('dddd', s) end
local at = now
if last and at < last then at = last end
local idx = fdiv(at, w)
local el, curr, prev = at - idx * w, 0, 0
if si == idx then curr, prev = c, p
elseif si and si + 1 == idx then prev = c end
local ok = 0
if n <= limit and (n == 0 or (limit - curr >= n and mulLE(prev, w - el, limit - curr - n, w))) then
  ok = 1
  if n > 0 then
    local v = struct.pack('dddd', at, idx, curr + n, prev)
    if si == idx then -- fresh at the next window's end: the window's first write set it
      redis.call('SET', KEYS[1], v, 'KEEPTTL')
    else
      redis.call('SET', KEYS[1], v, 'PX', -fdiv(el - 2 * w, 1000) + slack)
    end
  end
end
return struct.pack('<dddddd', ok, at, now, idx, curr, prev)
