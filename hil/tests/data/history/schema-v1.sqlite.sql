-- A history store as schema version 1 left it (SQLite): the first layout, figures without
-- judged and attempts, holding one run of one figure. The history tests open it with the
-- current hilperf-report, which must migrate it and read the run back.
CREATE TABLE hilperf_schema (version INTEGER PRIMARY KEY, applied TEXT NOT NULL);
INSERT INTO hilperf_schema VALUES (1, '2026-11-01T00:00:00.000000Z');
CREATE TABLE runs (id INTEGER PRIMARY KEY, board TEXT NOT NULL, run_key TEXT NOT NULL, started TEXT NOT NULL, runner TEXT NOT NULL, profile_hash TEXT NOT NULL, software_version TEXT NOT NULL, duration_set TEXT NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL, skipped INTEGER NOT NULL, UNIQUE (board, run_key));
CREATE TABLE figures (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, seq INTEGER NOT NULL, case_name TEXT NOT NULL, metric TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, unit TEXT NOT NULL, higher_is_better INTEGER NOT NULL, PRIMARY KEY (run_id, seq));
INSERT INTO runs VALUES (1, '', 'v1-run', '2026-11-26T02:00:00.000000Z', 'old-runner', '', 'bsp-1.0', 'nightly', 1, 0, 0);
INSERT INTO figures VALUES (1, 0, 'Direction/TcpThroughput.MeetsLimit/DutTransmits', 'Direction/TcpThroughput.MeetsLimit/DutTransmits goodput', 945.0, 'Mbit/s', 1);
