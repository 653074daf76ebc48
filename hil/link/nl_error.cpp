#include "hil/link/nl_error.hpp"

#include <netlink/errno.h>

#include <cerrno>
#include <cstdlib>

namespace hil::link {
namespace {

class nl_error_category final : public std::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "libnl"; }
  [[nodiscard]] std::string message(int code) const override { return nl_geterror(code); }
};

}  // namespace

const std::error_category& nl_category() noexcept {
  static const nl_error_category category;
  return category;
}

std::error_code make_nl_error(int nl_result) noexcept {
  const int code = std::abs(nl_result);
  switch (code) {
    case NLE_PERM:
      return {EPERM, std::system_category()};
    case NLE_NODEV:
    case NLE_OBJ_NOTFOUND:
      return {ENODEV, std::system_category()};
    case NLE_INVAL:
    case NLE_RANGE:
      return {EINVAL, std::system_category()};
    case NLE_BUSY:
      return {EBUSY, std::system_category()};
    default:
      return {code, nl_category()};
  }
}

void throw_nl(int nl_result, const std::string& what) {
  throw std::system_error(make_nl_error(nl_result), what);
}

}  // namespace hil::link
