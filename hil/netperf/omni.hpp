// netperf 2.7's control messages for its "omni" tests, which stock netperf sends for all six
// classic test names (docs/netserver-protocol.md): pure functions over bytes, no sockets.
//
//   netperf (client)                                         netserver (:12865, TCP)
//     | --- TCP connect (control) ---------------------------> |   no greeting, no version
//     | --- DO_OMNI request, 656 bytes ----------------------> |   encode_request
//     | <-------------------------- OMNI_RESPONSE, 656 bytes - |   decode_response: data port
//     | === data phase, the client connects / sends to ====== |
//     |     <netserver host>:<data port>                       |
//     |   STREAM, RR: client shutdown(SHUT_WR), waits for EOF  |
//     |   MAERTS:     netserver stops on its timer and closes  |
//     |   UDP:        client sends 3 zero-length datagrams     |
//     |   CRR:        nothing; netserver's timer, 4 s later    |
//     | <-------------------------------- results, 656 bytes - |   decode_results
//     | --- shutdown(SHUT_WR) --------------------------------> |   netserver closes
//
// Every message is 656 bytes: an 8-byte header and 162 32-bit words of test data.
//
//   msg+0    int32   type: 97 DO_OMNI, 98 OMNI_RESPONSE; the results' type is garbage
//   msg+4    int32   request: the CPU netserver pins itself to (-1 none); answers: serv_errno
//   msg+8    648 B   the test's struct, whose first words are big-endian; char arrays raw
//
//   DO_OMNI request (client → server)          OMNI_RESPONSE              results
//   msg+  8 send_buf_size   -1                 recv_buf_size              bytes_received (hi)
//   msg+ 12 send_size       -1                 receive_size               bytes_received (lo)
//   msg+ 16 send_alignment  8                  recv_width                 recv_calls
//   msg+ 20 send_offset     0                  send_buf_size              recv_buf_size (end)
//   msg+ 24 send_width      0                  send_size                  bytes_sent (hi)
//   msg+ 28 request_size    RR size, else -1   send_width                 bytes_sent (lo)
//   msg+ 32 recv_buf_size   -1                 flags                      send_calls
//   msg+ 36 receive_size    -1                 cpu_rate (f32)             send_buf_size (end)
//   msg+ 40 recv_alignment  8                  test_length (unset)        failed_sends (stale)
//   msg+ 44 recv_offset     0                  so_rcvavoid                trans_received
//   msg+ 48 recv_width      0                  so_sndavoid                elapsed_time (f32, s)
//   msg+ 52 response_size   RR size, else -1   data_port ◀── connect      cpu_util (f32)
//   msg+ 56 flags           0x20 routing, 0x4 CRR, 0x1 nodelay            cpu_percent_* (5 f32)
//   msg+ 60 cpu_rate        0.0 (f32)
//   msg+ 64 test_length     seconds
//   msg+ 68 so_rcvavoid, so_sndavoid: 0 0                                 msg+ 76 serv_dem (stale)
//   msg+ 76 send_dirty, recv_dirty, recv_clean: -1 -1 -1                  msg+ 80 cpu_method (0)
//   msg+ 88 data_port       0: ephemeral                                  msg+ 84 num_cpus
//   msg+ 92 ipfamily        4 or 6 (netperf's codes, not AF_*)            msg+112 transport_retrans
//   msg+ 96 socket_type     1 stream, 2 datagram                          msg+276 cong_control[16]
//   msg+100 protocol        6 TCP, 17 UDP                                         (raw chars)
//   msg+104 direction       what netserver does: 2 sends, 4 receives, 6 both
//   msg+108 netperf_port    our data socket's port (informational)
//   msg+112 interval_burst, interval_usecs: 0 0
//   msg+120 netperf_ip[4], netserver_ip[4]: 0 (wildcard)
//   msg+152 socket_prio, socket_tos: -1 -1
//   msg+160 cong_control[16], fill_file[32]: raw chars, empty; zero to the end
//
// Integers are big-endian two's complement, floats big-endian IEEE binary32 bit patterns.
//
// Errors: malformed input throws std::system_error with std::errc::protocol_error and a message
// that names the field (hil/sys/error.hpp policy); a request that cannot be encoded throws
// std::system_error with std::errc::invalid_argument.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "hil/measure/workload.hpp"

namespace hil::netperf {

// Every control message, both ways.
inline constexpr std::size_t message_size = 656;
using message = std::array<std::uint8_t, message_size>;

// netserver's default control port (netperf -p, netserver -p).
inline constexpr std::uint16_t default_port = 12865;

// Message types (netperf's netlib.h).
inline constexpr std::int32_t do_omni = 97;
inline constexpr std::int32_t omni_response = 98;

// netserver's timer runs the test length plus this many seconds (its PAD_TIME), except when it
// only transmits (TCP_MAERTS): the client's end marker normally ends a test well before.
inline constexpr int pad_seconds = 4;

// The serv_errno netserver answers a request type it does not know with.
inline constexpr std::int32_t unknown_request_errno = 998;

// What the client asks netserver to do. Sizes of -1 leave netserver's choice, as netperf does.
struct omni_request {
  measure::workload kind = measure::workload::tcp_stream;
  std::int32_t send_size = -1;      // netserver's bytes per send() when it sends (MAERTS)
  std::int32_t recv_size = -1;      // netserver's bytes per recv() in stream tests
  std::int32_t request_size = 1;    // RR tests: bytes per request; -1 on the wire otherwise
  std::int32_t response_size = 1;   // RR tests: bytes per response; -1 on the wire otherwise
  std::int32_t socket_buffer = -1;  // SO_SNDBUF and SO_RCVBUF of netserver's data socket
  std::int32_t test_length_s = 10;  // seconds, > 0 (netperf -l)
  int family = 4;                   // of the data connection: 4 IPv4, 6 IPv6
  std::uint16_t data_port = 0;      // netserver binds its data socket here; 0: ephemeral
  std::uint16_t netperf_port = 0;   // our data socket's port, if bound (informational)
  bool no_delay = false;            // TCP_NODELAY on netserver's data socket (netperf -- -D)
};

// The 656-byte DO_OMNI request for r, byte for byte what netperf 2.7 sends for the same test
// except the ring depths (send_width, recv_width), which netperf fills with its own and we leave
// to netserver (0). Throws invalid_argument for a test length <= 0, a family other than 4 or 6,
// or an RR test with a request or response size < 1.
[[nodiscard]] message encode_request(const omni_request& r);

// What netserver set up for the test, from its OMNI_RESPONSE.
struct omni_setup {
  std::int32_t recv_buf_size = 0;  // its data socket's SO_RCVBUF ("remote recv socket size")
  std::uint32_t receive_size = 0;  // its bytes per recv()
  std::int32_t send_buf_size = 0;  // its SO_SNDBUF ("remote send socket size")
  std::uint32_t send_size = 0;     // its bytes per send() (MAERTS: its message size)
  std::uint16_t data_port = 0;     // where the client connects or sends: always this port
};

// Decodes an OMNI_RESPONSE. Throws protocol_error when msg is not 656 bytes, when serv_errno is
// set ("netserver refused the test: error N (text)"), when the type is not 98 or the data port
// is not a port.
[[nodiscard]] omni_setup decode_response(std::span<const std::uint8_t> msg);

// netserver's side of a finished test, from its results message.
struct omni_results {
  std::uint64_t bytes_received = 0;
  std::uint64_t bytes_sent = 0;
  std::uint32_t recv_calls = 0;  // successful recv() calls; end markers are not counted
  std::uint32_t send_calls = 0;
  std::uint32_t transactions = 0;      // RR tests: responses netserver sent
  std::int32_t recv_buf_size = 0;      // SO_RCVBUF at the end (after autotuning)
  std::int32_t send_buf_size = 0;      // SO_SNDBUF at the end
  double elapsed_s = 0;                // netserver's clock, response sent to loop end, pad removed
  std::optional<double> cpu_util;      // percent, when the request asked for CPU (cpu_method != 0)
  std::uint32_t num_cpus = 0;          // with cpu_util
  std::int32_t transport_retrans = 0;  // TCP retransmissions (TCP_INFO), -1 for UDP
  std::string congestion;              // TCP congestion control at the end, "" for CRR and UDP
};

// Decodes a results message. Its type word is never checked: netserver 2.7 leaves the response's
// type there, byte-swapped twice. Throws protocol_error when msg is not 656 bytes, when
// serv_errno is set (netserver failed mid-test), for an elapsed time that is no duration or a
// congestion name that is no name.
[[nodiscard]] omni_results decode_results(std::span<const std::uint8_t> msg);

// netserver's serv_errno in words: "error 111 (Connection refused)"; 998 is netserver's own
// "unknown request".
[[nodiscard]] std::string describe_serv_errno(std::int32_t serv_errno);

}  // namespace hil::netperf
