#!/bin/bash
# fuzz_walk's reader of trace_pipe_raw (model/fuzz/trace_raw.c), on pages
# and format files laid out as the kernel lays them out (KTAP).
top=$(cd "$(dirname "$0")/../.." && pwd)
exec make -s -C "$top/model" test-raw OUT="$top/build/model"
