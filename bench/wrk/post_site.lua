-- POST of one new site per request; names are unique per run, wrk invocation, thread and request.
-- wrk ... -s post_site.lua <url> -- <run id>
package.path = os.getenv("BENCH_WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

local run_id
local counter = 0

setup = common.number_thread
done = common.done

function init(args)
  -- the start second tells this wrk invocation from the warm-up before it
  run_id = args[1] .. "-" .. os.time()
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local name = string.format("bench-%s-%d-%d", run_id, thread_number, counter)
  return wrk.format(nil, "/api/dcim/sites/", nil,
    string.format('{"name": "%s", "slug": "%s", "status": "planned"}', name, name))
end
