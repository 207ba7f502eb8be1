-- The check run on every bench-lua that scripts/bench links: exercises the parser, the VM,
-- the garbage collector and most standard libraries, and prints a deterministic summary.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
assert(fib(20) == 6765)

local t = {}
for i = 1, 2000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
for i = 2, #t do assert(t[i - 1] <= t[i]) end

local words = {}
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do
  words[#words + 1] = w:upper()
end
assert(table.concat(words, ","):find("LAZY", 1, true))
assert(string.format("%5.2f|%x|%q", math.pi, 255, "a\nb") == ' 3.14|ff|"a\\\nb"')

local co = coroutine.wrap(function(a)
  local s = a
  for i = 1, 3 do s = s + coroutine.yield(s) end
  return s
end)
assert(co(1) == 1 and co(2) == 3 and co(3) == 6 and co(4) == 10)

local weak = setmetatable({}, { __mode = "k" })
for i = 1, 100 do weak[{}] = i end
collectgarbage("collect")
assert(next(weak) == nil)

assert(utf8.len("héllo") == 5)
assert(math.tointeger(2^53) == 9007199254740992)
assert(select("#", pcall(error, "x")) == 2)
assert(os.time({ year = 2000, month = 1, day = 1, hour = 12 }) ~= nil)
local ok, err = load("return 1 +")
assert(ok == nil and err:find("unexpected symbol"))

print(string.format("check.lua: ok (%s, fib(20)=%d, %d sorted, %s)", _VERSION, fib(20), #t,
  table.concat(words, " ", 1, 3)))
