-- One decision of limiter/redisstore, atomic in Redis. Lua numbers are
-- doubles, so every value here is an integer below 2^53: instants in whole
-- microseconds since the Unix epoch, a bucket's debt in the store's reduced
-- unit (see bucketArgs in script.go), counts and limits as given. Products that
-- may pass 2^53 are compared exactly in base 2^18 (mulLE).
--
-- KEYS[1]: the key's state (a hash); KEYS[2]: the sliding window log's runs.
-- ARGV: kind, n, now in µs ('' reads the server's TIME), TTL slack in ms,
-- then the kind's parameters.
-- Reply: {allowed, evaluated at, now, then the kind's values}.

local function fdiv(a, b) -- floor(a / b), exact for |a| + b < 2^53, b > 0
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end

local function cdiv(a, b) return -fdiv(-a, b) end

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
  local x, y = mul(a, b), mul(c, d)
  for i = 6, 1, -1 do
    if x[i] ~= y[i] then return x[i] < y[i] end
  end
  return true
end

local slack = tonumber(ARGV[4])

local function expire(ms) -- ms < 0: never fresh again, keep the state
  for _, k in ipairs(KEYS) do
    if ms < 0 then redis.call('PERSIST', k) else redis.call('PEXPIRE', k, ms + slack) end
  end
end

local function clamp(now, last)
  if last and now < last then return last end
  return now
end

-- Token bucket, GCRA, leaky bucket: the debt paid back at perUs a µs.
local function bucket(n, now)
  local perUs, unit, burst, inf = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8] == '1'
  local h = redis.call('HMGET', KEYS[1], 'l', 'd')
  local last, debt = tonumber(h[1]), 0
  local at = clamp(now, last)
  if last then
    debt = tonumber(h[2])
    local el = at - last
    if debt > 0 and perUs > 0 and el > 0 then
      if el >= cdiv(debt, perUs) then debt = 0 else debt = debt - el * perUs end
    end
  end
  local ok, nxt = 0, debt
  if inf then
    ok, nxt = 1, 0
  elseif n <= burst and debt + n * unit <= burst * unit then
    ok, nxt = 1, debt + n * unit
  end
  if ok == 1 and n > 0 then
    redis.call('HSET', KEYS[1], 'l', at, 'd', nxt)
    if nxt == 0 then expire(1)
    elseif perUs == 0 then expire(-1)
    else expire(cdiv(cdiv(nxt, perUs), 1000)) end
  end
  return {ok, at, now, nxt}
end

local function fixedWindow(n, now)
  local limit, w = tonumber(ARGV[5]), tonumber(ARGV[6])
  local h = redis.call('HMGET', KEYS[1], 'l', 'i', 'c')
  local last = tonumber(h[1])
  local at = clamp(now, last)
  local idx, count = fdiv(at, w), 0
  local same = last and tonumber(h[2]) == idx
  if same then count = tonumber(h[3]) end
  local ok = 0
  if n <= limit and (n == 0 or n <= limit - count) then
    ok, count = 1, count + n
    if n > 0 then
      redis.call('HSET', KEYS[1], 'l', at, 'i', idx, 'c', count)
      -- The key is fresh at the window's end: the window's first write set it.
      if not same then expire(cdiv((idx + 1) * w - at, 1000)) end
    end
  end
  return {ok, at, now, idx, count}
end

local function slidingCounter(n, now)
  local limit, w = tonumber(ARGV[5]), tonumber(ARGV[6])
  local h = redis.call('HMGET', KEYS[1], 'l', 'i', 'c', 'p')
  local last = tonumber(h[1])
  local at = clamp(now, last)
  local idx = fdiv(at, w)
  local el, curr, prev, si = at - idx * w, 0, 0, nil
  if last then
    si = tonumber(h[2])
    if si == idx then curr, prev = tonumber(h[3]), tonumber(h[4])
    elseif si + 1 == idx then prev = tonumber(h[3]) end
  end
  local ok = 0
  if n <= limit and (n == 0 or (limit - curr >= n and mulLE(prev, w - el, limit - curr - n, w))) then
    ok = 1
    if n > 0 then
      redis.call('HSET', KEYS[1], 'l', at, 'i', idx, 'c', curr + n, 'p', prev)
      -- Fresh at the next window's end: the window's first write set it.
      if si ~= idx then expire(cdiv(2 * w - el, 1000)) end
    end
  end
  return {ok, at, now, idx, curr, prev}
end

-- Sliding window log: KEYS[2] holds runs, an instant then how many units
-- were admitted at it, oldest first; KEYS[1] the latest instant and the
-- units held. A request reads the runs that expired, the runs up to the unit
-- a denial waits for (at most n), and the newest: never the whole log.
local function run(i) -- the i-th run (0-based): its instant and units, or nil
  local r = redis.call('LRANGE', KEYS[2], 2 * i, 2 * i + 1)
  if #r < 2 then return nil end
  return tonumber(r[1]), tonumber(r[2])
end

local function slidingLog(n, now)
  local limit, w = tonumber(ARGV[5]), tonumber(ARGV[6])
  local h = redis.call('HMGET', KEYS[1], 'l', 'c')
  local last, total = tonumber(h[1]), tonumber(h[2]) or 0
  local at = clamp(now, last)
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
    redis.call('HSET', KEYS[1], 'l', at, 'c', count)
    expire(cdiv(w, 1000))
    return {ok, at, now, count, ek, at}
  end
  if count == 0 then newest = 0 end
  return {ok, at, now, count, ek, newest}
end

local now
if ARGV[3] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[3])
end
local kind, n = ARGV[1], tonumber(ARGV[2])
if kind == 'b' then return bucket(n, now)
elseif kind == 'fw' then return fixedWindow(n, now)
elseif kind == 'swc' then return slidingCounter(n, now)
elseif kind == 'swl' then return slidingLog(n, now) end
return redis.error_reply('redisstore: unknown kind ' .. tostring(kind))
