-- POST of "{}" to the URL given to wrk, e.g. /api/ipam/prefixes/<id>/available-ips/ (each POST
-- allocates the next free address).
package.path = os.getenv("BENCH_WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

setup = common.number_thread
done = common.done
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"
