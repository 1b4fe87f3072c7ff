-- Shared by the bench/wrk scripts: the API token header, per-thread numbering, and the JSON
-- summary that done() writes to $WRK_RESULT (bench/lib/report.py reads it).
local common = {}

wrk.headers["Authorization"] = "Token " .. assert(os.getenv("BENCH_TOKEN"), "BENCH_TOKEN is not set")
wrk.headers["Accept"] = "application/json"

local thread_count = 0

-- Called by each script's setup(): gives every wrk thread its own number (global `thread_number`
-- inside that thread), used for random seeds and unique names.
function common.number_thread(thread)
  thread_count = thread_count + 1
  thread:set("thread_number", thread_count)
end

function common.seed_random()
  math.randomseed(os.time() * 100 + (thread_number or 0))
end

-- Reads one integer per line from a file (e.g. the seeded device ids).
function common.read_ids(path)
  local ids = {}
  for line in io.lines(path) do
    local id = tonumber(line)
    if id then ids[#ids + 1] = id end
  end
  assert(#ids > 0, "no ids in " .. path)
  return ids
end

-- bench/run puts the first three fields of /proc/loadavg, read before the run, in BENCH_LOADAVG.
local function load_average_before()
  local values = {}
  for v in string.gmatch(os.getenv("BENCH_LOADAVG") or "", "[%d.]+") do values[#values + 1] = v end
  return table.concat(values, ", ")
end

function common.done(summary, latency, requests)
  local path = assert(os.getenv("WRK_RESULT"), "WRK_RESULT is not set")
  local errors = summary.errors
  local seconds = summary.duration / 1e6
  local out = assert(io.open(path, "w"))
  out:write(string.format(
    '{"requests": %d, "seconds": %.3f, "requests_per_s": %.1f, "bytes": %d, ' ..
    '"latency_ms": {"mean": %.3f, "p50": %.3f, "p90": %.3f, "p99": %.3f, "max": %.3f}, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"load_average_before": [%s]}\n',
    summary.requests, seconds, summary.requests / seconds, summary.bytes,
    latency.mean / 1000, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    load_average_before()))
  out:close()
end

return common
