-- GET of the URL given to wrk (its path and query string), e.g. a device list page.
package.path = os.getenv("BENCH_WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

setup = common.number_thread
done = common.done
