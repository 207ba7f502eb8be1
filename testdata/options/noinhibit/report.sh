#!/bin/sh
# --error-handling-script: says what the linker asked about, succeeds.
echo "script: $*" >&2
