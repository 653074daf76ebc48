// Kind "link": a check of the DUT interface itself (LinkSpeed, Duplex, Carrier, MtuReadBack,
// Connectivity). The verdict carries what was read back; the figures say which interface.
#pragma once

#include <string>

namespace hil::record {

struct link_figures {
  std::string interface;  // the DUT interface, e.g. "eth0"
};

}  // namespace hil::record
