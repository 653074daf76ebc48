#include "hil/frame/path_error.hpp"

#include <cerrno>

namespace hil::frame {

const char* refusal_words(refusal r) {
  switch (r) {
    case refusal::not_built:
      return "not built with libxdp";
    case refusal::no_privilege:
      return "no privilege";
    case refusal::no_kernel_support:
      return "no kernel support";
    case refusal::driver_refused:
      return "driver refused";
    case refusal::other:
      break;
  }
  return "failed";
}

refusal classify_errno(int err) {
  switch (err) {
    case EPERM:
    case EACCES:
      return refusal::no_privilege;
    case EAFNOSUPPORT:
    case EPROTONOSUPPORT:
    case ENOPROTOOPT:
    case ENOSYS:
      return refusal::no_kernel_support;
    case EOPNOTSUPP:
    case EINVAL:
    case EBUSY:
    case ENXIO:
    case ENODEV:
      return refusal::driver_refused;
    default:
      return refusal::other;
  }
}

void throw_unavailable(int err, const std::string& what) {
  throw path_unavailable(classify_errno(err), err, what);
}

}  // namespace hil::frame
