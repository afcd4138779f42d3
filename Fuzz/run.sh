#!/usr/bin/env bash
# Builds every libFuzzer target under Fuzz/Targets and runs each for a fixed number of executions.
#
#     Fuzz/run.sh [executions per target, default 100000] [target ...]
#
# MemhuntFormats (and MemhuntYAML for `yaml`; MemhuntCore, MemhuntChecks and their dependencies for
# `playbook`, MemhuntArtifacts and MemhuntHTTP for `manifest`) are compiled once with
# -sanitize=fuzzer,address and -enable-testing into static libraries; each target is a small file linked
# against them. The corpus
# of each target starts from every file under Fixtures/ and ../shared/realworld (read in place, never
# copied into the repo); what libFuzzer adds goes to $FUZZ_OUT/corpus/<target> (.build/fuzz by
# default), crashing inputs to $FUZZ_OUT/crashes/. Keep a crashing input as a regression fixture under
# Fixtures/fuzz/ with a test. Inputs are capped at $FUZZ_MAX_LEN bytes (16384: the fixtures are larger,
# but 64 KiB inputs ran the differential change-log target at 200 executions/s; 4096 for reprotext, see
# below). Exits non-zero when
# any target found something. $FUZZ_SECONDS, when set, also stops each target after that many seconds
# (the count it reached is in the log). A unit slower than $FUZZ_TIMEOUT seconds (60) is a finding: at
# 10 s, FootprintReport.parse of the 10 KB JustSend JetsamEvent timed out with ASan and comparison
# tracing on the loaded 2-core box, where a release build parses it in 3 ms. Linux only (the
# toolchain ships libFuzzer there). ASan records no stack for each allocation and free
# (malloc_context_size=0, unless $ASAN_OPTIONS says otherwise): detection is unchanged, and a finding is
# re-run with full stacks to read it. Recording them was a quarter of the reprotext target's time (perf);
# without them crash-text ran 1,148 executions/s instead of 726.
set -euo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
cd "$(dirname "$0")/.."
runs=${1:-100000}
shift || true
out=${FUZZ_OUT:-.build/fuzz}
mkdir -p "$out/lib" "$out/bin" "$out/crashes" "$out/logs"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -enable-testing)

# The libraries are rebuilt when a source is newer than them.
build_lib() { # module, sources dir, extra flags...
    local module=$1 dir=$2
    shift 2
    local lib="$out/lib/lib$module.a"
    if [ -f "$lib" ] && [ -z "$(find "$dir" -name '*.swift' -newer "$lib")" ]; then return; fi
    echo "fuzz: building $module" >&2
    # A new archive each time: the static-library step adds to an existing one, so a source file renamed or
    # removed left its old object inside, and the link then found every symbol of it twice.
    rm -f "$lib"
    swiftc "${flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/lib/$module.swiftmodule" \
        -emit-library -static -o "$lib" "$@" $(find "$dir" -name '*.swift' | sort)
}
build_lib MemhuntFormats Sources/MemhuntFormats
build_lib MemhuntYAML Sources/MemhuntYAML -I Sources/CYaml

targets=("$@")
if ((${#targets[@]} == 0)); then
    for file in Fuzz/Targets/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi

# The playbook loader (MemhuntCore, with the built-in checks' descriptions) and the manifest reader
# (MemhuntArtifacts) need more of the package: built only when one of them is asked for.
c_modules=(-I "$out/lib" -I Sources/CYaml -I Sources/CLibcrypto -I Sources/CCurl/include -I Sources/CMappedFile/include
    -I Sources/CZlib)
if [[ " ${targets[*]} " == *" playbook "* || " ${targets[*]} " == *" manifest "* || " ${targets[*]} " == *" gzip "* ]]; then
    build_lib MemhuntBasics Sources/MemhuntBasics "${c_modules[@]}"
    build_lib MemhuntCore Sources/MemhuntCore "${c_modules[@]}"
    build_lib MemhuntSnapshots Sources/MemhuntSnapshots "${c_modules[@]}"
    build_lib MemhuntChecks Sources/MemhuntChecks "${c_modules[@]}"
fi
# The leaks target also names each tree's shapes (MemhuntSnapshots: the cycle catalog, the per-class diff).
if [[ " ${targets[*]} " == *" leaks "* ]] && [[ ! " ${targets[*]} " == *" playbook "* ]]; then
    build_lib MemhuntSnapshots Sources/MemhuntSnapshots "${c_modules[@]}"
fi
if [[ " ${targets[*]} " == *" manifest "* || " ${targets[*]} " == *" gzip "* ]]; then
    # MemhuntHTTP's libcurl loader (C): compiled with the same sanitizers, into its own archive.
    if [ ! -f "$out/lib/libCCurl.a" ] || [ Sources/CCurl/CCurl.c -nt "$out/lib/libCCurl.a" ]; then
        clang -fsanitize=address,fuzzer-no-link -O1 -g -I Sources/CCurl/include -c Sources/CCurl/CCurl.c \
            -o "$out/lib/CCurl.o"
        ar rcs "$out/lib/libCCurl.a" "$out/lib/CCurl.o"
    fi
    # MemhuntArtifacts' file mappings (C), the same way.
    if [ ! -f "$out/lib/libCMappedFile.a" ] || [ Sources/CMappedFile/CMappedFile.c -nt "$out/lib/libCMappedFile.a" ]; then
        clang -fsanitize=address,fuzzer-no-link -O1 -g -I Sources/CMappedFile/include -c Sources/CMappedFile/CMappedFile.c \
            -o "$out/lib/CMappedFile.o"
        ar rcs "$out/lib/libCMappedFile.a" "$out/lib/CMappedFile.o"
    fi
    build_lib MemhuntHTTP Sources/MemhuntHTTP "${c_modules[@]}"
    build_lib MemhuntArtifacts Sources/MemhuntArtifacts "${c_modules[@]}"
fi

seeds=(Fixtures)
[ -d ../shared/realworld ] && seeds+=(../shared/realworld)
failed=()
for target in "${targets[@]}"; do
    bin="$out/bin/$target"
    extra=(Fuzz/Targets/"$target".swift)
    libs=(-lMemhuntFormats)
    case "$target" in
    yaml) libs=(-lMemhuntYAML -lyaml -I Sources/CYaml) ;;
    changelog) extra+=(Fuzz/Reference/ReferenceChangeLogScanner.swift) ;;
    jetsam) extra+=(Fuzz/Reference/ReferenceIPSHeader.swift) ;;
    viewdump) extra+=(Fuzz/Reference/ReferenceViewHierarchyDump.swift) ;;
    reprotext) extra+=(Fuzz/Reference/ReferenceReproText.swift) ;;
    leaks) libs=("${c_modules[@]}" -lMemhuntSnapshots -lMemhuntFormats) ;;
    playbook)
        libs=("${c_modules[@]}" -lMemhuntChecks -lMemhuntSnapshots -lMemhuntCore -lMemhuntYAML -lMemhuntFormats
            -lMemhuntBasics -lyaml -lcrypto)
        ;;
    manifest | gzip)
        libs=("${c_modules[@]}" -lMemhuntArtifacts -lCMappedFile -lMemhuntHTTP -lCCurl -lMemhuntCore -lMemhuntYAML
            -lMemhuntFormats -lMemhuntBasics -lyaml -lcrypto -lz -ldl)
        ;;
    esac
    if [ ! -x "$bin" ] || [ -n "$(find "${extra[@]}" "$out/lib" -newer "$bin" | head -1)" ]; then
        echo "fuzz: building $target" >&2
        # The linker warns about every ASan helper it cannot export: keep that out of the way.
        swiftc "${flags[@]}" -I "$out/lib" -L "$out/lib" "${libs[@]}" -module-name "Fuzz_${target//-/_}" \
            -o "$bin" "${extra[@]}" 2>"$out/logs/$target.build.log" || {
            cat "$out/logs/$target.build.log" >&2
            exit 1
        }
    fi
    mkdir -p "$out/corpus/$target"
    log="$out/logs/$target.log"
    echo "fuzz: $target, $runs executions" >&2
    # reprotext checks text helpers line by line against a slow `Character`-level oracle, whose cost grows
    # with the lines of an input: 4 KiB (libFuzzer's own default) ran 373 executions/s against 136 at 16 KiB
    # (each beside one other fuzzer on the 2 cores), and 1 KiB, which still holds a dozen lines and lines
    # of any length the helpers treat alike, 522 against 343 at 4 KiB (three fuzzers on the 2 cores).
    max_len=${FUZZ_MAX_LEN:-16384}
    [ "$target" = reprotext ] && max_len=${FUZZ_MAX_LEN:-1024}
    # changelog runs five scanners (two of them on a cut input's parts) and the reference per input; with
    # caches of 1 to 32 tails picked by the input, a full cache no longer needs 16,384 distinct lines, and
    # 4 KiB holds dozens of lines: 38,364
    # executions in a minute against 26,434 at 16 KiB (beside one other fuzzer).
    [ "$target" = changelog ] && max_len=${FUZZ_MAX_LEN:-4096}
    # -reload=0: one fuzzer writes each corpus, so nothing new appears in it from outside; libFuzzer's default
    # re-lists it and stats every file each second, 8 % of the changelog target's time at 2,634 files (perf).
    if "$bin" -runs="$runs" -max_total_time="${FUZZ_SECONDS:-0}" -max_len="$max_len" \
        -timeout="${FUZZ_TIMEOUT:-60}" -reload=0 \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$target-" "$out/corpus/$target" "${seeds[@]}" >"$log" 2>&1; then
        echo "fuzz: $target ok: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') executions" >&2
    else
        echo "fuzz: $target FOUND SOMETHING: see $log and $out/crashes/$target-*" >&2
        failed+=("$target")
    fi
done
if ((${#failed[@]})); then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi
