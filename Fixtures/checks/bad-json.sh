#!/bin/sh
cat >/dev/null
echo '{"fact": "a", "value": 1}'
echo '{not json'
