// hilperf-report history: the history store queried and filled from the command line.
//
//   hilperf-report history [--board B] [--metric M] [--since T] [--csv]
//       a board's trend: every figure whose name holds M, run by run, oldest first
//   hilperf-report history --fell --metric M --since T
//       every board's figure at the first run since T against its latest: which boards lost
//   hilperf-report history import DIR [--board B]
//       a directory store's runs into the store, idempotent (hil/history/import.hpp)
//
// The store is --store URL, else the profile's [history] (--profile, $HILPERF_PROFILE, the
// build's). T is an ISO 8601 UTC time or its prefix ("2026-12-01"), or a run id
// ("20261201T020000Z"). Exit codes: 0 done, 2 bad input or a store that cannot be reached.
#pragma once

// argv[0] is "history".
int history_main(int argc, char** argv);
