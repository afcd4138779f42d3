-- memhunt's per-app fleet figures in DuckDB, over `memhunt scan --format ndjson` output: the same
-- records, ranks, peakMB, suspendedResidentMB, reasons, devices and builds per app as
-- `memhunt scan --format json`'s `apps` (one row per app here, most records first).
--
--   memhunt scan --format ndjson fleet/ > fleet.ndjson 2> rejected.txt
--   duckdb -c "SET VARIABLE ndjson = 'fleet.ndjson'" -c ".read Benchmarks/duckdb/scan.sql"
--
-- or Benchmarks/duckdb/scan.py (JSON out, as the Spark job's `apps`). `ndjson` may be a glob of files.
-- Rejected files are on memhunt's stderr, not in the ndjson: keep that stream.
--
-- Percentiles are memhunt's: exact and nearest-rank, the value at 1-based position ceil(p/100 * n) of the
-- sorted values (not DuckDB's quantile_disc, which picks another position), p/100 as a DOUBLE as memhunt
-- computes it. ndjson has MB rounded to one
-- decimal; nearest-rank picks an element, so rounding before or after gives the same figure.
-- A line of another schema than memhunt.record/1 stops the query with an error.
WITH records AS (
    SELECT *
    FROM read_ndjson(getvariable('ndjson'), columns = {
        schema: 'VARCHAR', file: 'VARCHAR', kind: 'VARCHAR', time: 'DOUBLE', product: 'VARCHAR',
        build: 'VARCHAR', compressions: 'UBIGINT',
        apps: 'STRUCT(name VARCHAR, peakMB DOUBLE, residentMB DOUBLE, rank INTEGER, state VARCHAR, reason VARCHAR)[]'
    })
    WHERE CASE WHEN schema IS DISTINCT FROM 'memhunt.record/1'
        THEN error('not a memhunt.record/1 line (schema ' || coalesce(schema, 'absent') || '): ' || coalesce(file, '?'))
        ELSE true END
),
rows AS (
    SELECT product, build, unnest(apps) AS a FROM records
),
app_rows AS (
    SELECT
        a.name AS app, product, build, a.peakMB AS peak, a.rank AS rank, a.reason AS reason,
        CASE WHEN list_contains(string_split(coalesce(a.state, ''), ','), 'suspended') THEN a.residentMB END
            AS suspended
    FROM rows
),
figures AS (
    SELECT
        app,
        count(*) AS records,
        count(*) FILTER (WHERE rank <= 1) AS r1,
        count(*) FILTER (WHERE rank > 1 AND rank <= 5) AS r2,
        count(*) FILTER (WHERE rank > 5 AND rank <= 10) AS r6,
        count(*) FILTER (WHERE rank > 10) AS r11,
        list_sort(list(peak) FILTER (WHERE peak IS NOT NULL)) AS peaks,
        list_sort(list(suspended) FILTER (WHERE suspended IS NOT NULL)) AS suspendeds
    FROM app_rows
    GROUP BY app
),
counted AS (
    SELECT app, 'reasons' AS what, reason AS value, count(*) AS n FROM app_rows WHERE reason IS NOT NULL
    GROUP BY ALL
    UNION ALL
    SELECT app, 'devices', product, count(*) FROM app_rows WHERE product IS NOT NULL GROUP BY ALL
    UNION ALL
    SELECT app, 'builds', build, count(*) FROM app_rows WHERE build IS NOT NULL GROUP BY ALL
),
counts AS (
    SELECT
        app,
        map_from_entries(list((value, n) ORDER BY value) FILTER (WHERE what = 'reasons')) AS reasons,
        map_from_entries(list((value, n) ORDER BY value) FILTER (WHERE what = 'devices')) AS devices,
        map_from_entries(list((value, n) ORDER BY value) FILTER (WHERE what = 'builds')) AS builds
    FROM counted
    GROUP BY app
)
SELECT
    f.app,
    f.records,
    {'1': f.r1, '2-5': f.r2, '6-10': f.r6, '>10': f.r11} AS ranks,
    CASE WHEN len(f.peaks) > 0 THEN {
        'count': len(f.peaks),
        'p50': f.peaks[greatest(1, ceil(0.50::DOUBLE * len(f.peaks)))::INTEGER],
        'p90': f.peaks[greatest(1, ceil(0.90::DOUBLE * len(f.peaks)))::INTEGER],
        'p99': f.peaks[greatest(1, ceil(0.99::DOUBLE * len(f.peaks)))::INTEGER],
        'max': f.peaks[-1]
    } END AS peakMB,
    CASE WHEN len(f.suspendeds) > 0 THEN {
        'count': len(f.suspendeds),
        'p50': f.suspendeds[greatest(1, ceil(0.50::DOUBLE * len(f.suspendeds)))::INTEGER],
        'p90': f.suspendeds[greatest(1, ceil(0.90::DOUBLE * len(f.suspendeds)))::INTEGER],
        'p99': f.suspendeds[greatest(1, ceil(0.99::DOUBLE * len(f.suspendeds)))::INTEGER],
        'max': f.suspendeds[-1]
    } END AS suspendedResidentMB,
    coalesce(c.reasons, MAP {}) AS reasons,
    coalesce(c.devices, MAP {}) AS devices,
    coalesce(c.builds, MAP {}) AS builds
FROM figures f LEFT JOIN counts c USING (app)
ORDER BY f.records DESC, f.app;
