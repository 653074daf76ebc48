// The socket exchanges at the edges of a data stream, around the loops of workloads.hpp and
// flow.hpp: a look at the peer's first answer, a drain to its close, datagrams sent again until
// the peer answers (a UDP stream's end marker until the report; a request for the peer's stream
// until it starts). The session says what the bytes are (the protocol's codecs); these only move
// them, every wait bounded by a deadline.
//
//   open   write_all(hello) ─ peek_first_answer ─▶ data …        (TCP: the peer's ack or refusal)
//          resend_until_data(ask) ─▶ the peer's stream …           (UDP: asking for it)
//   end    shutdown(WR) ─ drain_until_close                        (TCP: the peer read it all)
//          resend_until_answered(marker, report?) / send_copies(marker)   (UDP)
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hil::traffic {

using edge_clock = std::chrono::steady_clock;

// Waits until fd is readable (data, EOF or an error waiting) or deadline passes; true when
// readable. Throws std::system_error when poll fails.
bool wait_readable(int fd, edge_clock::time_point deadline);

// What the peer sent first on a stream, left in the socket for the data loop.
struct first_answer {
  bool closed = false;               // it closed the connection before sending anything
  std::optional<std::uint8_t> byte;  // its first byte, when one came
};
// The peer's first answer within deadline; neither closed nor a byte when nothing came in time
// (or the socket reports an error, which the data loop will meet).
first_answer peek_first_answer(int fd, edge_clock::time_point deadline);

// Reads and discards until the peer closes (returns the bytes read meanwhile) or deadline passes
// (nullopt), also while it goes on sending. Throws std::system_error (what: the errno's text) on a
// receive error.
std::optional<std::uint64_t> drain_until_close(int fd, edge_clock::time_point deadline,
                                               const std::string& what);

// Reads what waits on fd without blocking; true once the peer closed the connection or reset it.
bool peer_closed(int fd);

// Sends datagram n times on connected fd, ignoring errors: a copy lost or refused is what the
// copies are for (an empty datagram is an end marker's).
void send_copies(int fd, std::span<const std::uint8_t> datagram, int n);

// Sends ask(round) on connected UDP fd for round 0 … rounds, each followed by up to interval of
// reading answers; returns the first answer `take` accepts, nullopt after the last round (a
// receive error ends a round early: an ICMP error does not end the schedule).
std::optional<std::vector<std::uint8_t>> resend_until_answered(
    int fd, int rounds, edge_clock::duration interval,
    const std::function<std::vector<std::uint8_t>(int round)>& ask,
    const std::function<bool(std::span<const std::uint8_t>)>& take);

// How asking for the peer's datagram stream ended.
enum class ask_outcome { answered, refused, unanswered };
// Sends ask on connected UDP fd every interval, at most rounds times, until a datagram waits
// (left there for the receiving loop): answered; refused when nothing listens (ICMP port
// unreachable). Throws std::system_error (what) when a send fails otherwise.
ask_outcome resend_until_data(int fd, int rounds, edge_clock::duration interval,
                              std::span<const std::uint8_t> ask, const std::string& what);

}  // namespace hil::traffic
