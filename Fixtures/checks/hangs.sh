#!/bin/sh
echo "about to hang" >&2
exec sleep 600
