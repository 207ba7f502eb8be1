#!/bin/sh
# --error-handling-script that fails.
exit 3
