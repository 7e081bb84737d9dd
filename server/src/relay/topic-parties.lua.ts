/**
 * The Lua both Redis publish scripts (one instance, cluster) share: a ttl over the unpaired one only for a
 * party of a topic both parties have published on, then the publisher recorded on the topic's parties hash.
 * Expects locals `sub`, `p1`, `p2`, `value`, `expiresAt` and `id`; `expiresAtArg` / `unpairedArg` are the
 * ARGV indexes of the requested and the unpaired expiry (admission.ts `pairedExpiry`). Defines
 * `expiresAtText`. KEYS[1] is the topic's messages hash, KEYS[2] its parties hash.
 */
export const capUnpairedTtlAndRecordParty = (expiresAtArg: number, unpairedArg: number): string => `
local paired
if sub == p1 or sub == p2 then paired = p1 ~= false and p2 ~= false
else paired = p1 ~= false and p2 == false end
local expiresAtText = ARGV[${expiresAtArg}]
if not paired and tonumber(ARGV[${unpairedArg}]) < expiresAt then
  value = '{"expiresAt":' .. ARGV[${unpairedArg}] .. string.sub(value, 14 + #ARGV[${expiresAtArg}])
  expiresAt, expiresAtText = tonumber(ARGV[${unpairedArg}]), ARGV[${unpairedArg}]
end
redis.call('HSET', KEYS[1], id, value)
redis.call('HINCRBY', KEYS[2], sub, 1)
if sub ~= p1 and sub ~= p2 then
  if not p1 then redis.call('HSET', KEYS[2], '~1', sub)
  elseif not p2 then redis.call('HSET', KEYS[2], '~2', sub)
  else redis.call('HINCRBY', KEYS[2], '~others', 1) end
end
`
