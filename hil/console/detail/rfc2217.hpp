// An RFC 2217 console (ser2net's `telnet(rfc2217)` accepter): a telnet connection over which the
// client sets the server's serial line (baud rate, 8N1, flow control) and then moves bytes. The
// protocol is libgensio's (Debian's libgensio-dev), behind rfc2217_link; hil::console::port is the
// only user. What is pure (the address, the causes) is here too, tested without a server.
//
//   rfc2217_link(address, …, deadline):
//     TCP connect ──▶ telnet: WILL COM-PORT-OPTION ──▶ the server's DO (or DONT: not RFC 2217)
//       ──▶ SET-BAUDRATE n ──▶ the server's answer: the rate it set (another one: refused)
//       ──▶ SET-DATASIZE 8, SET-PARITY none, SET-STOPSIZE 1, SET-CONTROL flow control
//       ──▶ open: read_some / write, each by its deadline ──▶ closed on destruction
//
// Built without libgensio (HIL_STATIC: Debian ships no static archives of its dependencies) the
// link's constructor throws, naming what to use instead.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace hil::console::detail {

// What went wrong with an RFC 2217 console, as far as its cause can be told.
enum class rfc2217_fault {
  refused,          // nothing listens at the address
  unreachable,      // no route to the host, or a name that does not resolve
  no_answer,        // the deadline passed before the server answered
  closed,           // the server closed the connection
  not_rfc2217,      // the server answers telnet's COM-PORT-OPTION with DONT, or not at all
  setting_refused,  // the server set another value than the one asked, or did not answer
  other,
};

// The likely cause of fault, for someone at the bench ("nothing listens there: …").
[[nodiscard]] std::string_view likely_cause(rfc2217_fault fault) noexcept;

// libgensio's connect string for "host:port" ("[v6]:port" too): "telnet(rfc2217),tcp,host,port".
// Throws std::invalid_argument naming address when the port is missing or no number in 1..65535,
// the host is empty, or either holds what would be read as more of gensio's syntax (',', '(',
// ')', blanks).
[[nodiscard]] std::string gensio_connect_string(std::string_view address);

struct rfc2217_settings {
  int baud = 115200;
  bool rtscts = false;  // RTS/CTS flow control; else none
};

class rfc2217_link {
 public:
  using clock = std::chrono::steady_clock;

  // Connects to address ("host:port") and sets the server's serial line to settings, all by
  // deadline. name is what messages call the console ("rfc2217://host:port"). Throws
  // std::invalid_argument for a malformed address, std::system_error (its code libgensio's, whose
  // conditions compare equal to std::errc's: connection_refused, timed_out, not_supported, …)
  // naming name, the step and likely_cause() otherwise.
  rfc2217_link(std::string_view address, const rfc2217_settings& settings,
               clock::time_point deadline, std::string name);
  ~rfc2217_link();
  rfc2217_link(const rfc2217_link&) = delete;
  rfc2217_link& operator=(const rfc2217_link&) = delete;

  // What arrived, at most max bytes, waiting until deadline for the first; empty when nothing
  // came. Throws std::system_error naming the console when the server closed the connection.
  [[nodiscard]] std::string read_some(clock::time_point deadline, std::size_t max);

  // Writes all of bytes by deadline; throws std::system_error naming the console when it cannot.
  void write(std::string_view bytes, clock::time_point deadline);

  // The baud rate the server reported having set (equal to the one asked: another one throws).
  [[nodiscard]] int baud() const noexcept { return baud_; }

 private:
  struct state;  // libgensio's objects, in rfc2217_gensio.cpp
  std::unique_ptr<state> state_;
  int baud_ = 0;
};

}  // namespace hil::console::detail
