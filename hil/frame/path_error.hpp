// Why a frame path cannot be used here, as a kind a user can act on and the kernel's own error.
#pragma once

#include <string>
#include <system_error>

namespace hil::frame {

enum class refusal {
  not_built,          // the program was built without the library (libxdp)
  no_privilege,       // EPERM/EACCES: CAP_NET_RAW, CAP_NET_ADMIN (or CAP_BPF) missing
  no_kernel_support,  // the address family or socket option does not exist in this kernel
  driver_refused,     // the interface or its driver would not take the socket or mode
  other,
};

// "no privilege", "no kernel support", "driver refused", "not built with libxdp", "failed".
[[nodiscard]] const char* refusal_words(refusal r);

// The refusal an errno from socket set-up means: EPERM/EACCES no_privilege; EAFNOSUPPORT,
// EPROTONOSUPPORT, ENOPROTOOPT, ENOSYS no_kernel_support; EOPNOTSUPP, EINVAL, EBUSY, ENXIO,
// ENODEV driver_refused (at bind, per the step's own context); anything else other.
[[nodiscard]] refusal classify_errno(int err);

// A path's set-up failed: what() says the step and the kernel's error; kind() says why in words.
class path_unavailable : public std::system_error {
 public:
  path_unavailable(refusal kind, int err, const std::string& what)
      : std::system_error(err, std::system_category(), what), kind_(kind) {}
  [[nodiscard]] refusal kind() const noexcept { return kind_; }

 private:
  refusal kind_;
};

// Throws path_unavailable for err, classified by classify_errno, with what as the step.
[[noreturn]] void throw_unavailable(int err, const std::string& what);

}  // namespace hil::frame
