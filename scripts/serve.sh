#!/bin/sh
# Runs the compiled server (dist/node/main.js, built by `npm run build`) as production runs it.
# `npm start`, `npm run serve`, the browser stories and `npm run measure:throughput` all start it
# here, so that what is tested and measured is the process that serves the school's visitors.
# Arguments are more options for node (e.g. `npm run serve -- --enable-source-maps`).
#
# - MALLOC_ARENA_MAX=2 unless already set: glibc's default of 8 malloc arenas per core kept about
#   100 MB of memory freed by the threads that compress pages (decision 043). Each process of
#   WEB_CONCURRENCY gets it too (src/server/cluster.ts).
# - --max-semi-space-size=4 --heap-growing-percent=20: V8's young generation at most 4 MB a
#   half, and the old generation grown by 20 % after a full collection instead of V8's default
#   factor of up to 4: about 80 MB less resident memory under load (decision 044). 4 MB rather
#   than 2: the same memory, fewer young collections and fewer short-lived objects promoted, 9 %
#   more cached pages a second (decision 045). Processes of WEB_CONCURRENCY inherit node's options.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node --max-semi-space-size=4 --heap-growing-percent=20 "$@" "$(dirname "$0")/../dist/node/main.js"
