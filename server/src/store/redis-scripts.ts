/**
 * Lua scripts run atomically by Redis: nothing else executes between their commands, so a
 * check-then-write inside one script cannot race another instance.
 */

/**
 * The fixed-window hit on counter `key` (a Lua expression) with a window of `windowMs` ms (a Lua
 * expression); leaves `count` and `ttl` (ms until reset) set. The window starts at the key's
 * first hit (INCR creates it, PEXPIRE arms it) and Redis is the only clock, so every instance sees
 * the same window. A counter that somehow lost its expiry (-1) is re-armed rather than left to
 * count forever.
 */
const countHit = (key: string, windowMs: string, cost = '1') => `
local count = redis.call('INCRBY', ${key}, ${cost})
if count == tonumber(${cost}) then
  redis.call('PEXPIRE', ${key}, ${windowMs})
end
local ttl = redis.call('PTTL', ${key})
if ttl < 0 then
  redis.call('PEXPIRE', ${key}, ${windowMs})
  ttl = tonumber(${windowMs})
end`

/** Fixed-window hit. KEYS[1] counter; ARGV[1] window in ms. Returns { count, ms until reset }. */
export const HIT_WINDOW_LUA = `${countHit('KEYS[1]', 'ARGV[1]')}
return { count, ttl }
`

/**
 * The caller's window and the project's fair ceiling (`decideCeiling`) in one step. KEYS[1] the
 * caller's counter, KEYS[2] the ceiling's counter, KEYS[3] the ceiling's distinct callers (a
 * HyperLogLog: 12 KB at most, however many callers, ~0.8 % error); ARGV[1] the caller's window ms,
 * ARGV[2] the caller's limit, ARGV[3] the ceiling's window ms, ARGV[4] the ceiling, ARGV[5] the hits this request counts
(its cost, 1 but for a balances batch). A caller past
 * its own limit spends nothing of the ceiling: returns { count, ttl }. Otherwise the ceiling is
 * hit and the caller added to its callers (reset with the ceiling's window): returns { count,
 * ttl, ceiling count, ceiling ttl }, and once the ceiling is full, the distinct callers as a
 * fifth element (PFCOUNT only then).
 */
export const HIT_WITH_CEILING_LUA = `${countHit('KEYS[1]', 'ARGV[1]', 'ARGV[5]')}
if count > tonumber(ARGV[2]) then
  return { count, ttl }
end
local callerCount, callerTtl = count, ttl
${countHit('KEYS[2]', 'ARGV[3]', 'ARGV[5]')}
if count == tonumber(ARGV[5]) then
  redis.call('DEL', KEYS[3])
end
if redis.call('PFADD', KEYS[3], KEYS[1]) == 1 and redis.call('PTTL', KEYS[3]) < 0 then
  redis.call('PEXPIRE', KEYS[3], ttl)
end
if count <= tonumber(ARGV[4]) then
  return { callerCount, callerTtl, count, ttl }
end
return { callerCount, callerTtl, count, ttl, redis.call('PFCOUNT', KEYS[3]) }
`

/**
 * A poll: the session read and, only when the gate admits the record, the window hit, in one
 * atomic step. KEYS[1] session hash, KEYS[2] counter; ARGV[1] the presented token's hash
 * JSON-encoded (as the hash stores it); ARGV[2] a JSON object, projectId → window ms, of the
 * projects the request may reach. Returns nil when there is no session, else one JSON text:
 * `[record]`, or `[record, count, ms until reset]` when the hit was counted. The hash values are
 * JSON already, so the record is assembled by concatenation; and one string is far cheaper for the
 * client to decode than a reply of 34 elements.
 */
export const GET_SESSION_AND_HIT_LUA = `
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then
  return false
end
local members, tokenHash, projectId = {}, nil, nil
for i = 1, #fields, 2 do
  members[#members + 1] = '"' .. fields[i] .. '":' .. fields[i + 1]
  if fields[i] == 'tokenHash' then tokenHash = fields[i + 1] end
  if fields[i] == 'projectId' then projectId = fields[i + 1] end
end
local record = '{' .. table.concat(members, ',') .. '}'
local windowMs = nil
if tokenHash == ARGV[1] and projectId then
  windowMs = cjson.decode(ARGV[2])[cjson.decode(projectId)]
end
if not windowMs then
  return '[' .. record .. ']'
end
${countHit('KEYS[2]', 'windowMs')}
return '[' .. record .. ',' .. count .. ',' .. ttl .. ']'
`

/**
 * Session compare-and-set. KEYS[1] session hash; ARGV[1] expected version; ARGV[2] the new
 * expiresAt ('' when unchanged); ARGV[3..] field/value pairs (values JSON-encoded). Returns the updated
 * hash as a flat field/value list, or nil when the record is gone or the version moved on.
 * HSET keeps the key's TTL; a moved expiresAt shifts the TTL by the same amount, so no clock
 * other than the record's own timestamps is involved.
 */
export const COMPARE_AND_SET_LUA = `
local current = redis.call('HGET', KEYS[1], 'version')
if not current or current ~= ARGV[1] then
  return nil
end
local shift = 0
if ARGV[2] ~= '' then
  shift = tonumber(ARGV[2]) - tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
end
if #ARGV > 2 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 3))
end
redis.call('HINCRBY', KEYS[1], 'version', 1)
if shift ~= 0 then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then
    redis.call('PEXPIRE', KEYS[1], math.max(1, ttl + shift))
  end
end
return redis.call('HGETALL', KEYS[1])
`

/** Creates a session hash only when the id is free. KEYS[1] hash; ARGV[1] ttl ms; ARGV[2..] pairs. */
export const CREATE_SESSION_LUA = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`
