// A socket loop in a session on purpose: hil/session holds control sessions only, so
// ci/check-session-sockets must reject this file (lint.layers.session_uses_sockets checks that it
// does, naming both calls).
#include <sys/socket.h>

#include <cstddef>

namespace hil::session {

void a_second_data_plane(int fd, char* buf, std::size_t n) {
  while (::recv(fd, buf, n, 0) > 0) {
  }
  mmsghdr batch[1] = {};
  (void)sendmmsg(fd, batch, 1, 0);  // the call in a comment is not counted: ::send(
}

}  // namespace hil::session
