-- GET <path-prefix><id>/ for ids drawn at random from a file of ids.
-- wrk ... -s get_random_id.lua <url> -- <ids-file> <path-prefix, e.g. /api/dcim/devices/>
package.path = os.getenv("BENCH_WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

local ids, prefix

setup = common.number_thread
done = common.done

function init(args)
  ids = common.read_ids(args[1])
  prefix = args[2]
  common.seed_random()
end

function request()
  return wrk.format("GET", prefix .. ids[math.random(#ids)] .. "/")
end
