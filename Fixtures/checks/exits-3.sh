#!/bin/sh
cat >/dev/null
echo "database of thresholds not found" >&2
exit 3
