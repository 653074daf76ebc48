// A POSIX shell at a Linux board's console, driven as a program, not as a person: for a board
// whose only network link is the port under test, so that an MTU tier or a link test, which cut an
// ssh session, leave this one standing.
//
//   open:   Ctrl-C, line ending ──▶ "login:"? user ──▶ "Password:"? password
//           ──▶ run: keep `stty -g`, PS1, PS2, TERM, PROMPT_COMMAND in shell variables (unless an
//              earlier session that never closed kept them), then `stty -echo -onlcr`, PS1 and
//              PS2 empty, TERM=dumb: no echo, no prompts, no line editor's sequences
//
//   run k:  <command>; echo "@@hilperf-<nonce>-<k>""@@ $?"
//           ◀── the command's lines, streamed ◀── "@@hilperf-<nonce>-<k>@@ <status>" ends it
//   close:  stty <kept>, PS1/PS2/TERM/PROMPT_COMMAND as they were
//
// The end marker is split in two quoted halves on the command line, so the command's own echo (or
// a line editor redrawing it) never looks like its end, and carries a nonce per session and the
// command's number, so a marker left on the console by an earlier session or an interrupted
// command never ends another one. Control
// sequences and carriage returns are taken out of every line (a shell's line editor, bash's
// bracketed paste, a kernel message's CR LF); kernel messages printed on the console between a
// command's lines stay among them, as a person would see them.
//
// Every wait has a deadline. A command still running at its deadline, or when the caller asks it
// to stop, gets Ctrl-C (SIGINT to the shell's foreground job) and a bounded wait for its end.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hil/console/ansi_filter.hpp"
#include "hil/console/port.hpp"
#include "hil/console/transcript.hpp"

namespace hil::shell {

using clock = std::chrono::steady_clock;

struct shell_options {
  std::string user = "root";  // typed when the console asks "login:"
  std::string password;       // typed when it asks "Password:"
  // How long the shell has to answer each step of opening, and to end a command after Ctrl-C.
  std::chrono::milliseconds answer_timeout{10000};
};

// The shell did not answer, or a command did not end: what was awaited, on which port, and the
// console's last line, in what().
class shell_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class shell_session {
 public:
  // Takes over the shell at p (which must outlive the session) as drawn above, logging what
  // crosses the console to log. Throws shell_error naming the port, what was tried and the last
  // line when no shell answers (a wrong port or baud rate, a board still booting, a login that
  // fails), std::system_error when the port fails.
  shell_session(console::port& p, console::transcript& log, shell_options options);
  // Puts the terminal settings and prompts back as they were (bounded; never throws).
  ~shell_session();
  shell_session(const shell_session&) = delete;
  shell_session& operator=(const shell_session&) = delete;

  // Runs command (a line of sh; its stdin is the console unless it redirects it) and hands each
  // line it prints, without its line end, to line as it arrives; its exit status. At deadline, or
  // once stop becomes true, Ctrl-C is sent and the command gets answer_timeout to end; throws
  // shell_error when it does not (or, at the deadline, when it did: the command took too long).
  // log_lines false: the lines are noted in the log by count only (a file's encoded bytes).
  int run(std::string_view command, const std::function<void(std::string_view)>& line,
          clock::time_point deadline, const std::atomic<bool>* stop = nullptr,
          bool log_lines = true);

  struct captured {
    int status = 0;
    std::string output;  // its lines, each ending in '\n'
  };
  // run, the lines kept (at most max_bytes; throws shell_error past it).
  captured capture(std::string_view command, clock::time_point deadline,
                   std::size_t max_bytes = 1 << 20);

  // capture, asked once a session: the board's answer to a question that does not change while the
  // session lasts (which tools it has), kept from the first time it was answered.
  const captured& capture_once(const std::string& command, clock::time_point deadline);

  // Writes bytes to the console as they are (a command's input, such as a file's encoded lines),
  // not logged: the log notes what they were instead.
  void send_raw(std::string_view bytes, std::string_view what, clock::time_point deadline);

  [[nodiscard]] const console::port& where() const noexcept { return port_; }

 private:
  void wake();
  // Types the user and the password when the console asks for them (a getty), until a prompt or
  // a quiet console; throws shell_error when the login is refused or needs a password not given.
  void log_in_if_asked();
  // The next complete line (control sequences and CRs taken out); empty optional at the deadline.
  std::optional<std::string> next_line(clock::time_point deadline);
  // Types command with command k's end marker after it.
  void start(std::string_view command, unsigned k, clock::time_point deadline);
  // Ctrl-C, then a fresh end marker (k+1: the shell drops the rest of an interrupted line), and
  // its end within answer_timeout; throws shell_error (why, the command) when none comes.
  int interrupt(std::string_view command, std::string_view why);
  [[nodiscard]] std::string last_line() const;

  console::port& port_;
  console::transcript& log_;
  shell_options options_;
  std::string marker_;     // "@@hilperf-<nonce>-": a command's end marker adds "<k>@@ <status>"
  unsigned sequence_ = 0;  // the number of the command running or last run
  console::ansi_filter filter_;
  std::string pending_;  // received text not yet a whole line
  std::string last_line_;
  bool quiet_ = false;       // a file's lines: counted in the log, not logged
  bool taken_over_ = false;  // the shell's state is kept in its variables: give it back
  std::map<std::string, captured, std::less<>> answered_;  // capture_once's, by command
};

// text quoted as one word for sh: 'text', each ' as '\''.
[[nodiscard]] std::string shell_word(std::string_view text);

}  // namespace hil::shell
