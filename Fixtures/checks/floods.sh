#!/bin/sh
cat >/dev/null
exec yes '{"fact": "flood", "value": 1}'
