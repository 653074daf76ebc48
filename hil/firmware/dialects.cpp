#include "hil/firmware/dialect.hpp"

namespace hil::firmware {

const dialect* dialect_named(std::string_view name) {
  for (const dialect* d : {&st67w6x(), &zperf(), &esp_idf()}) {
    if (d->name == name) return d;
  }
  return nullptr;
}

bool sends_udp_server_report(const dialect& d) { return &d != &esp_idf(); }

}  // namespace hil::firmware
