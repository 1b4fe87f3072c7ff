-- PATCH <path-prefix><id>/ of a random id from a file, setting a new description each time.
-- wrk ... -s patch_random_id.lua <url> -- <ids-file> <path-prefix, e.g. /api/dcim/devices/>
package.path = os.getenv("BENCH_WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

local ids, prefix
local counter = 0

setup = common.number_thread
done = common.done

function init(args)
  ids = common.read_ids(args[1])
  prefix = args[2]
  common.seed_random()
  wrk.method = "PATCH"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  return wrk.format(nil, prefix .. ids[math.random(#ids)] .. "/", nil,
    string.format('{"description": "bench patch %d-%d"}', thread_number, counter))
end
