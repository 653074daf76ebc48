// One iperf 2 test that the client turned round (-R) or made both ways (--full-duplex), served on
// the client's own connection or UDP 5-tuple (docs/iperf2-protocol.md §2, §3). The iperf 2
// server (iperf2_server) hands one over once it has the client's header and polls it from its
// event loop; the data moves on the engine's threads.
//
//   -R             we send for the header's -t (or -n) ─ TCP: shutdown(WR), wait for the
//                  client's close (it has read to our end) │ UDP: one FIN, sent three times
//   --full-duplex  as -R, and we receive the client's stream to its end (TCP: its shutdown;
//                  UDP: its FIN); TCP also waits until the client acknowledged all of ours
//
//   bounded: the test ends by the header's duration + slack (an untimed one: when nothing moved
//   for slack), cut off if the client has not ended it by then.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "hil/iperf2/wire.hpp"
#include "hil/measure/results.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/test_run.hpp"

namespace hil::session {

struct iperf2_turnaround_setup {
  iperf2::client_header header;  // way() is reverse or full_duplex
  bool udp = false;
  sys::unique_fd socket;  // connected to the client; nobody else reads or writes it
  int family = 0;         // AF_INET or AF_INET6
  // UDP: the length of the client's datagrams (ours are as long unless its header says -l).
  std::size_t datagram_len = 0;
  // UDP --full-duplex: the client's first data datagram (sequence 1) was read by the server's
  // shared socket before this one was connected; it counts as received.
  bool first_datagram_received = false;
  // TCP --full-duplex: the header's bytes, read before this; iperf 2 counts them as the
  // client's stream (a stock client's count includes them).
  std::size_t header_bytes = 0;
  std::chrono::seconds slack{20};
};

class iperf2_turnaround {
 public:
  using clock = std::chrono::steady_clock;

  // Creates the flows and starts them. Throws std::system_error when the socket cannot be set up.
  explicit iperf2_turnaround(iperf2_turnaround_setup setup);
  ~iperf2_turnaround();
  iperf2_turnaround(const iperf2_turnaround&) = delete;
  iperf2_turnaround& operator=(const iperf2_turnaround&) = delete;

  // Moves the test on (call every few tens of ms); true once it is over.
  bool step();
  // The test as this end saw it, once step() said it is over.
  [[nodiscard]] measure::test_result result() const;
  // One line for the server's log.
  [[nodiscard]] std::string summary() const;

 private:
  void end_sending();
  [[nodiscard]] bool client_done();

  iperf2_turnaround_setup s_;
  sys::unique_fd watch_;  // the connection, to see a TCP client's close
  traffic::test_run run_;
  clock::time_point deadline_;
  enum class phase { sending, stopping, finishing, over } phase_ = phase::sending;
  bool cut_ = false;
  std::uint64_t last_moved_ = 0;
  clock::time_point last_progress_;
  clock::time_point send_ended_;  // our stream's end (shutdown or FIN)
  std::optional<measure::test_result> result_;
};

}  // namespace hil::session
