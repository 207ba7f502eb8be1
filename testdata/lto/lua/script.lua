-- Exercises the interpreter broadly: arithmetic, strings and patterns, tables and sorting,
-- closures, metatables, coroutines, errors (longjmp in the C core), string.dump + load, utf8 and
-- the garbage collector. Output must not depend on addresses or time.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib(25) =", fib(25))
print(string.format("%5.2f %d %x %s %q", math.pi, 7 // 2, 255, 10 / 4, "a\"b"))
print(("hello world from lua"):gsub("(%w+)", string.upper))
local words = {}
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do words[#words + 1] = w end
table.sort(words, function(a, b) return #a < #b or (#a == #b and a < b) end)
print(table.concat(words, ","))
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
c1(); c1()
print("closures", c1(), c2())
local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Vec) end
Vec.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
local v = setmetatable({x = 1, y = 2}, Vec) + setmetatable({x = 10, y = 20}, Vec)
print("metatables", tostring(v))
local co = coroutine.wrap(function(a)
  for i = 1, 3 do a = coroutine.yield(a * i) end
  return "done"
end)
print("coroutine", co(2), co(5), co(7), co(0))
local ok, err = pcall(function() error({code = 42}) end)
print("pcall", ok, type(err), err.code)
print("error msg", select(2, pcall(function() local t = nil; return t.x end)))
local f = load(string.dump(function(a, b) return a * b + 1 end))
print("dump/load", f(6, 7))
print("utf8", utf8.len("héllo wörld"), utf8.char(72, 228, 8364))
local big = {}
for i = 1, 20000 do big[i] = {i, tostring(i)} end
big = nil
collectgarbage()
print("integer ops", math.maxinteger // 3, 7 % -3, -7 // 2, 2^10, 1 << 40)
local t = setmetatable({}, {__index = function(_, k) return k * 2 end})
print("index metamethod", t[21])
return 1, 2
