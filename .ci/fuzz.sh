#!/usr/bin/env bash
# Runs every Go fuzz target of the module (every Fuzz* function go test lists
# in every package) for FUZZTIME each (default 30s), one after another, and
# prints one summary line per target with its executions, the new corpus
# entries it found, and its outcome. A crasher fails the run: go test writes
# it to the package's testdata/fuzz/<FuzzName>/, where it stays as a
# regression seed that `go test` (and so `make test`) replays.
#
#   .ci/fuzz.sh                      FUZZTIME=60s .ci/fuzz.sh
#   FUZZMINIMIZETIME=5s (default) bounds the minimisation of each new input
#   FUZZ_PKGS=./models/... .ci/fuzz.sh
#
# Database-backed targets also fuzz on PostgreSQL when TEST_DATABASE_URL is set.
set -uo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
# go test minimises every new corpus entry before reporting it, for up to a
# minute by default: on slow targets (a request through a real router and
# database takes milliseconds) that would eat the whole FUZZTIME.
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-5s}
PKGS=${FUZZ_PKGS:-./...}

list=$("$GO" test -list '^Fuzz' $PKGS 2>&1) || { echo "$list"; echo "fuzz: go test -list failed" >&2; exit 1; }
# go test -list prints a package's matching names, then "ok  <package> <time>".
targets=$(awk '/^Fuzz/ { names[n++] = $1; next }
	/^ok / { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }' <<<"$list")
if [ -z "$targets" ]; then
	echo "fuzz: no Fuzz* targets found in $PKGS" >&2
	exit 1
fi
echo "fuzz: $(wc -l <<<"$targets") targets, $FUZZTIME each"

logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
summary=()
failed=0
while read -r pkg name; do
	log="$logdir/$name.log"
	echo "==> $pkg $name"
	"$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "$pkg" >"$log" 2>&1
	code=$?
	grep -E '^fuzz: elapsed' "$log" | tail -n 2
	last=$(grep -E '^fuzz: elapsed: .*execs: [0-9]+' "$log" | tail -n 1)
	execs=$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$last")
	interesting=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
	if [ "$code" -eq 0 ]; then
		outcome=ok
	else
		failed=1
		crasher=$(sed -nE 's/.*Failing input written to (.*)$/\1/p' "$log" | tail -n 1)
		outcome="FAIL${crasher:+ (crasher $crasher)}"
		echo "---- $name output ----"
		tail -n 40 "$log"
	fi
	summary+=("$(printf '%-28s %-52s %12s execs %6s new  %s' "$name" "${pkg#github.com/markuproom/markuproom/}" "${execs:-0}" "${interesting:-0}" "$outcome")")
done <<<"$targets"

echo
echo "fuzz summary (FUZZTIME=$FUZZTIME):"
printf '  %s\n' "${summary[@]}"
exit $failed
