#!/bin/sh
# Reads the request and answers with the names of the variables in its environment, and the value of
# TEAM_DB when it has one: what a check is given.
cat >/dev/null
names=$(env | cut -d= -f1 | sort | tr '\n' ' ')
printf '{"fact": "check.env", "value": "%s"}\n' "$names"
printf '{"fact": "check.teamDB", "value": "%s"}\n' "${TEAM_DB-unset}"
