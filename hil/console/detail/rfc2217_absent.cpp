// rfc2217_link in a build without libgensio (HIL_STATIC: Debian ships no static archives of the
// libraries libgensio needs, Kerberos through libtirpc among them): every link fails to open,
// saying what works instead.
#include <system_error>

#include "hil/console/detail/rfc2217.hpp"

namespace hil::console::detail {

struct rfc2217_link::state {};

rfc2217_link::rfc2217_link(std::string_view /*address*/, const rfc2217_settings& /*settings*/,
                           clock::time_point /*deadline*/, std::string name) {
  throw std::system_error(std::make_error_code(std::errc::not_supported),
                          "the console " + name +
                              ": this build of hilperf has no RFC 2217 (a static build, without "
                              "libgensio); use tcp://host:port with ser2net's tcp accepter and "
                              "the baud rate in ser2net's configuration, or a dynamic build");
}

rfc2217_link::~rfc2217_link() = default;

std::string rfc2217_link::read_some(clock::time_point /*deadline*/, std::size_t /*max*/) {
  return {};
}

void rfc2217_link::write(std::string_view /*bytes*/, clock::time_point /*deadline*/) {}

}  // namespace hil::console::detail
