// Interface counters as snapshots and deltas (pure: no netlink here, so it is unit-tested on
// values).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace hil::link {

// One snapshot of an interface's statistics (IFLA_STATS64 via libnl).
struct link_counters {
  std::uint64_t rx_packets = 0;
  std::uint64_t tx_packets = 0;
  std::uint64_t rx_bytes = 0;
  std::uint64_t tx_bytes = 0;
  std::uint64_t rx_errors = 0;
  std::uint64_t tx_errors = 0;
  std::uint64_t rx_dropped = 0;
  std::uint64_t tx_dropped = 0;
  std::uint64_t rx_crc_errors = 0;
  std::uint64_t rx_frame_errors = 0;
  std::uint64_t rx_fifo_errors = 0;
  std::uint64_t rx_missed_errors = 0;
  std::uint64_t tx_carrier_errors = 0;
  std::uint64_t collisions = 0;
};

// A counter field by name, for iterating over all of them (reports, properties).
struct counter_field {
  std::string_view name;
  std::uint64_t link_counters::*member;
  bool is_error;  // errors and drops: any growth during a test is worth reporting
};
inline constexpr std::array<counter_field, 14> counter_fields{{
    {"rx_packets", &link_counters::rx_packets, false},
    {"tx_packets", &link_counters::tx_packets, false},
    {"rx_bytes", &link_counters::rx_bytes, false},
    {"tx_bytes", &link_counters::tx_bytes, false},
    {"rx_errors", &link_counters::rx_errors, true},
    {"tx_errors", &link_counters::tx_errors, true},
    {"rx_dropped", &link_counters::rx_dropped, true},
    {"tx_dropped", &link_counters::tx_dropped, true},
    {"rx_crc_errors", &link_counters::rx_crc_errors, true},
    {"rx_frame_errors", &link_counters::rx_frame_errors, true},
    {"rx_fifo_errors", &link_counters::rx_fifo_errors, true},
    {"rx_missed_errors", &link_counters::rx_missed_errors, true},
    {"tx_carrier_errors", &link_counters::tx_carrier_errors, true},
    {"collisions", &link_counters::collisions, true},
}};

// The change between two snapshots of the same interface.
struct counter_delta {
  link_counters growth;     // after - before per field; 0 for a field that went backwards
  bool reset_seen = false;  // a field went backwards: the driver or interface was reset in between

  // Error and drop fields that grew, as "rx_errors +3, rx_dropped +1"; empty when none grew.
  [[nodiscard]] std::string error_summary() const;
  // True when no error or drop field grew and no reset was seen.
  [[nodiscard]] bool clean() const { return !reset_seen && error_summary().empty(); }
};

// after - before, field by field.
counter_delta delta(const link_counters& before, const link_counters& after);

}  // namespace hil::link
