// Evaluators for the link checks of procedure 000 ("Test Criteria": link up, 1000M negotiated,
// full duplex; MTU read-back equals the configured value; docs/checks.md). Pure functions over
// measured values.
#pragma once

#include <optional>
#include <string>

#include "hil/measure/verdict.hpp"

namespace hil::measure {

// LinkState: administratively up, carrier present, operstate "up".
verdict check_link_state(const std::string& ifname, bool admin_up, bool carrier,
                         const std::string& operstate);

// LinkSpeed: the negotiated speed equals the profile's (nullopt = the driver reports none).
verdict check_link_speed(const std::string& ifname, std::optional<int> observed_mbps,
                         int expected_mbps);

// Duplex: the negotiated duplex equals the profile's ("full" or "half").
verdict check_duplex(const std::string& ifname, const std::string& observed,
                     const std::string& expected);

// MtuReadBack: both read-back paths return exactly the MTU that was set.
verdict check_mtu_read_back(const std::string& ifname, int requested, int via_netlink,
                            int via_sysfs);

// Connectivity: every ICMP echo request through the DUT interface got its reply.
verdict check_connectivity(const std::string& ifname, const std::string& peer, int sent,
                           int received, double avg_rtt_ms);

}  // namespace hil::measure
