// Owning handles for libnl objects shared by the layer's sources: a detail header (libnl is the
// link layer's private dependency, so no layer above may see it).
#pragma once

#include <netlink/cache.h>

namespace hil::link::detail {

struct cache_deleter {
  void operator()(nl_cache* c) const noexcept { nl_cache_free(c); }
};

}  // namespace hil::link::detail
