#!/bin/bash
# The userspace model of the walk: its unit tests (model_cases.c, TAP),
# built by model/Makefile and run on the host against the host kernel's own
# answers.
top=$(cd "$(dirname "$0")/../.." && pwd)
exec make -s -C "$top/model" test OUT="$top/build/model"
