// The AF_XDP path of a build without libxdp (ci/cross-build's static programs, a machine without
// libxdp-dev): it reports itself unavailable and the chain goes on.
#include <cerrno>

#include "hil/frame/af_xdp_tx.hpp"
#include "hil/frame/path_error.hpp"

namespace hil::frame {

bool af_xdp_built() { return false; }

std::unique_ptr<frame_sender> open_af_xdp(const std::string& ifname,
                                          const frame_template& /*frame*/,
                                          const xsk_options& /*options*/) {
  throw path_unavailable(refusal::not_built, EOPNOTSUPP,
                         "AF_XDP on " + ifname +
                             ": this build has no libxdp (libxdp-dev and "
                             "libbpf-dev were absent when it was configured)");
}

}  // namespace hil::frame
