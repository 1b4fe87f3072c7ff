-- fixed request count: each thread stops after PERF_N/threads responses; counts non-2xx.
local token = os.getenv("BENCH_TOKEN")
wrk.headers["Authorization"] = "Token " .. token
wrk.headers["Accept"] = "application/json"
local threads = {}
local mode, limit, counter = nil, 0, 0
bad = 0
function setup(thread)
  table.insert(threads, thread)
  thread:set("tn", #threads)
end
function init(args)
  mode = args[1] or "get"
  limit = tonumber(args[2] or "1000")
  if mode == "patch" then
    wrk.method = "PATCH"
    wrk.headers["Content-Type"] = "application/json"
  end
  if mode == "post" then
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
  end
end
local run = tostring(os.time()) .. "-" .. tostring(math.random(1000000))
function request()
  if mode == "post" then
    counter_req = (counter_req or 0) + 1
    local name = string.format("perf-%s-%d-%d", run, tn, counter_req)
    return wrk.format(nil, nil, nil, string.format('{"name": "%s", "slug": "%s", "status": "planned"}', name, name))
  end
  if mode == "patch" then
    counter_req = (counter_req or 0) + 1
    return wrk.format(nil, nil, nil, string.format('{"description": "p-%s-%d-%d"}', run, tn, counter_req))
  end
  return wrk.format()
end
function response(status, headers, body)
  counter = counter + 1
  if status < 200 or status > 299 then bad = bad + 1 end
  if counter >= limit then wrk.thread:stop() end
end
function done(summary, latency, requests)
  local total_bad = 0
  for _, t in ipairs(threads) do total_bad = total_bad + (t:get("bad") or 0) end
  io.write(string.format("RESULT requests=%d bad=%d seconds=%.3f\n", summary.requests, total_bad, summary.duration / 1e6))
end
