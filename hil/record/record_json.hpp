// The one place records become JSON and back. The JSON line of a case (schema 2):
//
//   {"schema":2,"case":"MtuTier/UdpZeroLoss.NoDatagramLost/mtu1500","kind":"udp_tier",
//    "check":"UdpZeroLoss","pass":true,"observed":"0/42459 lost …","limit":"0 lost, …","cause":"",
//    "observed_value":0,"limit_value":0,"unit":"datagrams","bound":"at_most","margin":0,
//    "figures":{"mtu":1500,"ip_version":4,"payload_bytes":1472,"datagrams_sent":42459,…},
//    "counters":{"rx_packets":…,"reset_seen":false,"errors":""},
//    "attempt_count":1,"attempts_summary":"1 attempt, quiet (…)","cpu_pressure_percent":0.4,
//    "other_cpu_percent":1,"attempts":[{"number":1,"pass":true,…,"busiest":[…]}],
//    "time":"2026-12-01T02:00:00Z","started_ms":…,"recorded_ms":…,"board":"hp1"}
//   {"schema":2,"case":"MtuTier/UdpZeroLoss.NoDatagramLost/mtu9000","kind":"none",
//    "skipped":true,"reason":"jumbo tier 9000 is off …",…}
//
// Every field has one JSON type in every record. Numbers are rounded once, here (0.001 of the unit
// for the verdict's figures, 0.1 for Mbit/s, µs and CPU %), so the JSON line, the JUnit properties
// and the reports show the same value. Reading is strict for schema 2 (a field of the wrong type
// is an error naming it); a record without "schema" is schema 1, the untyped layout hilperf wrote
// before, and is read through its figures' key names (legacy_record.cpp).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hil/record/case_record.hpp"

namespace hil::record {

// A record that cannot be read: what() names the field and the problem.
class record_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The JSON line of r (schema_version).
[[nodiscard]] nlohmann::json to_json(const case_record& r);

// The record in j. Throws record_error for a schema it does not know (newer than this build),
// a missing required field or a field of the wrong type.
[[nodiscard]] case_record from_json(const nlohmann::json& j);

// The JUnit properties of a record's JSON line (to_json), in order: the verdict's figures,
// attempts, pressure, board, every scalar figure by name (arrays as their JSON text),
// counter_<field> and counter_errors. Each value is the line's value as text, so the two never
// differ.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> junit_properties(
    const nlohmann::json& line);

// Schema 1 (no "schema" key): the figures' kind from the keys present, numbers written as
// strings accepted. Throws record_error for a number that does not fit its field. Used by
// from_json; public for its tests.
[[nodiscard]] case_record from_legacy_json(const nlohmann::json& j);

}  // namespace hil::record
