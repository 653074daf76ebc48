// Kind "retransmits": TCP retransmissions per reporting interval (TcpRetransmits), summed over
// the test's streams, as the sender's TCP_INFO counted them.
#pragma once

#include <cstdint>
#include <vector>

namespace hil::record {

struct retransmit_figures {
  std::vector<std::int64_t> retransmits_per_interval;
};

}  // namespace hil::record
