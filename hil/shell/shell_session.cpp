#include "hil/shell/shell_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <random>
#include <regex>
#include <thread>
#include <utility>

namespace hil::shell {

namespace {

using namespace std::chrono_literals;

// A line longer than this without a line end is handed on as it is: memory stays bounded whatever
// the console sends.
constexpr std::size_t max_line = 64 * 1024;

std::string make_nonce() {
  std::random_device random;
  return fmt::format("{:08x}", random());
}

// A command's end in line: its number, its status and the output before it on that line.
struct end_mark {
  unsigned k = 0;
  int status = 0;
  std::string before;
};

std::optional<end_mark> find_end(std::string_view line, std::string_view marker) {
  const auto at = line.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + marker.size());
  end_mark end;
  auto [k_end, k_error] = std::from_chars(rest.data(), rest.data() + rest.size(), end.k);
  if (k_error != std::errc{}) return std::nullopt;
  rest.remove_prefix(static_cast<std::size_t>(k_end - rest.data()));
  if (!rest.starts_with("@@ ")) return std::nullopt;  // the command's echo: `…-<k>""@@ $?`
  rest.remove_prefix(3);
  auto [s_end, s_error] = std::from_chars(rest.data(), rest.data() + rest.size(), end.status);
  if (s_error != std::errc{}) return std::nullopt;
  rest.remove_prefix(static_cast<std::size_t>(s_end - rest.data()));
  if (rest.find_first_not_of(" \t") != std::string_view::npos) return std::nullopt;
  end.before = std::string(line.substr(0, at));
  return end;
}

// Keeps the shell's state before the session (once: a session that never closed already kept it)
// and turns echo, CR LF mapping, prompts and the line editor's terminal off.
constexpr const char* take_over =
    "[ -n \"${hilperf_stty+x}\" ] || { hilperf_stty=$(stty -g); hilperf_ps1=$PS1; "
    "hilperf_ps2=$PS2; hilperf_term=$TERM; hilperf_pc=${PROMPT_COMMAND-}; }; "
    "stty -echo -onlcr; PS1=''; PS2=''; TERM=dumb; PROMPT_COMMAND=''";

constexpr const char* give_back =
    "stty \"$hilperf_stty\"; PS1=$hilperf_ps1; PS2=$hilperf_ps2; TERM=$hilperf_term; "
    "PROMPT_COMMAND=$hilperf_pc; unset hilperf_stty hilperf_ps1 hilperf_ps2 hilperf_term "
    "hilperf_pc";

}  // namespace

std::string shell_word(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

shell_session::shell_session(console::port& p, console::transcript& log, shell_options options)
    : port_(p),
      log_(log),
      options_(std::move(options)),
      marker_("@@hilperf-" + make_nonce() + "-") {
  wake();
  const auto deadline = clock::now() + options_.answer_timeout;
  int status = 0;
  try {
    status = run(
        take_over, [](std::string_view) {}, deadline);
  } catch (const shell_error&) {
    throw shell_error(fmt::format(
        "no shell answered at the console {} within {} s: a command typed there never printed its "
        "end (last line: \"{}\"); a wrong port or baud rate, a board still booting, or a console "
        "that is not a shell",
        port_.name(), options_.answer_timeout.count() / 1000.0, last_line()));
  }
  if (status != 0) {
    throw shell_error(fmt::format(
        "the shell at {} could not turn its terminal's echo off (`stty -echo` exit status {}): "
        "a shell without stty cannot be driven",
        port_.name(), status));
  }
  taken_over_ = true;
}

shell_session::~shell_session() {
  if (!taken_over_) return;
  try {
    run(
        give_back, [](std::string_view) {}, clock::now() + options_.answer_timeout);
  } catch (...) {
    // The board keeps an empty prompt until the next session takes it over and gives it back.
  }
}

void shell_session::wake() {
  // What the console printed before (boot messages, an earlier session's output) is not ours.
  for (const auto quiet = clock::now() + 200ms; clock::now() < quiet;) {
    if (const auto chunk = port_.read_some(quiet); !chunk.empty()) log_.received(chunk);
  }
  // Ctrl-C ends what an interrupted session may have left running; the line ending asks for a
  // prompt, or a login prompt.
  port_.write("\x03\n", clock::now() + options_.answer_timeout);
  log_.sent("\x03\n");
  log_in_if_asked();
  pending_.clear();
}

void shell_session::log_in_if_asked() {
  static const std::regex login(R"(login: *$)");
  static const std::regex password(R"([Pp]assword: *$)");
  static const std::regex prompt(R"([#$>%] *$)");
  static const std::regex refused(R"(Login incorrect|Permission denied)");
  bool user_sent = false;
  bool password_sent = false;
  // A login prompt comes at once; a shell's prompt too, unless a session that never closed left
  // it empty, which the first command then finds.
  auto deadline =
      clock::now() + std::min<std::chrono::milliseconds>(2000ms, options_.answer_timeout);
  std::string text;
  while (clock::now() < deadline) {
    const auto chunk = port_.read_some(deadline);
    if (chunk.empty()) continue;
    log_.received(chunk);
    std::string visible = filter_.feed(chunk);
    std::erase(visible, '\r');
    text += visible;
    if (text.size() > max_line) text.erase(0, text.size() - max_line);
    if (std::regex_search(text, refused)) {
      throw shell_error(fmt::format("the board at {} refused the login of user {} (\"{}\")",
                                    port_.name(), options_.user, last_line()));
    }
    const auto tail = text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
    if (!tail.empty()) last_line_ = tail;
    if (std::regex_search(tail, login) && !user_sent) {
      port_.write(options_.user + "\n", clock::now() + options_.answer_timeout);
      log_.sent(options_.user + "\n");
      user_sent = true;
      text.clear();
      deadline = clock::now() + options_.answer_timeout;
    } else if (std::regex_search(tail, password) && !password_sent) {
      if (options_.password.empty()) {
        throw shell_error(
            fmt::format("the board at {} asks a password for user {}: give it in "
                        "HILPERF_BOARD_CONSOLE_PASSWORD (never in a profile)",
                        port_.name(), options_.user));
      }
      port_.write(options_.password + "\n", clock::now() + options_.answer_timeout);
      log_.note("password typed");
      password_sent = true;
      text.clear();
      deadline = clock::now() + options_.answer_timeout;
    } else if (std::regex_search(tail, prompt)) {
      return;
    }
  }
}

std::optional<std::string> shell_session::next_line(clock::time_point deadline) {
  for (;;) {
    if (const auto end = pending_.find('\n');
        end != std::string::npos || pending_.size() > max_line) {
      const auto length = std::min(end, pending_.size());
      std::string line = pending_.substr(0, length);
      pending_.erase(0, end == std::string::npos ? length : length + 1);
      if (!line.empty()) last_line_ = line;
      return line;
    }
    const auto chunk = port_.read_some(deadline);
    if (chunk.empty()) return std::nullopt;
    if (!quiet_) log_.received(chunk);
    std::string visible = filter_.feed(chunk);
    std::erase(visible, '\r');
    pending_ += visible;
  }
}

void shell_session::start(std::string_view command, unsigned k, clock::time_point deadline) {
  const std::string line = fmt::format("{}; echo \"{}{}\"\"@@ $?\"\n", command, marker_, k);
  port_.write(line, deadline);
  if (quiet_) {
    log_.note(fmt::format("typed a command of {} bytes", line.size()));
  } else {
    log_.sent(line);
  }
}

int shell_session::interrupt(std::string_view command, std::string_view why) {
  log_.note(fmt::format("Ctrl-C: {}", why));
  port_.write("\x03", clock::now() + options_.answer_timeout);
  const unsigned first = sequence_ + 1;
  const auto deadline = clock::now() + options_.answer_timeout;
  // The terminal drops typed input when it delivers SIGINT, so the marker is typed again each
  // second until one comes back.
  auto next_try = clock::now();
  while (clock::now() < deadline) {
    if (clock::now() >= next_try) {
      start("true", ++sequence_, deadline);
      next_try = clock::now() + 1s;
    }
    const auto line = next_line(std::min(deadline, next_try));
    if (!line) continue;
    if (const auto end = find_end(*line, marker_); end && end->k >= first) return end->status;
  }
  throw shell_error(fmt::format(
      "`{}` at the console {} did not end after Ctrl-C ({}) within {} s; last line: \"{}\"",
      command, port_.name(), why, options_.answer_timeout.count() / 1000.0, last_line()));
}

int shell_session::run(std::string_view command, const std::function<void(std::string_view)>& line,
                       clock::time_point deadline, const std::atomic<bool>* stop, bool log_lines) {
  const bool was_quiet = quiet_;
  quiet_ = !log_lines;
  struct restore {
    bool& flag;
    bool value;
    ~restore() { flag = value; }
  } restore_quiet{quiet_, was_quiet};
  const unsigned k = ++sequence_;
  start(command, k, deadline);
  std::size_t lines = 0;
  for (;;) {
    if (stop != nullptr && stop->load()) return interrupt(command, "the run was stopped");
    const auto now = clock::now();
    if (now >= deadline) {
      const int status = interrupt(command, "its deadline passed");
      throw shell_error(fmt::format(
          "`{}` at the console {} did not end by its deadline (Ctrl-C ended it, status {}); last "
          "line: \"{}\"",
          command, port_.name(), status, last_line()));
    }
    const auto got = next_line(std::min(deadline, now + 200ms));
    if (!got) continue;
    if (const auto end = find_end(*got, marker_)) {
      if (!end->before.empty()) line(end->before);
      if (end->k != k) continue;  // an interrupted command's late end
      if (quiet_) log_.note(fmt::format("{} lines received", lines));
      return end->status;
    }
    ++lines;
    line(*got);
  }
}

shell_session::captured shell_session::capture(std::string_view command, clock::time_point deadline,
                                               std::size_t max_bytes) {
  captured out;
  out.status = run(
      command,
      [&](std::string_view text) {
        if (out.output.size() + text.size() + 1 > max_bytes) {
          throw shell_error(fmt::format("`{}` at the console {} printed more than {} bytes",
                                        command, port_.name(), max_bytes));
        }
        out.output.append(text).push_back('\n');
      },
      deadline);
  return out;
}

const shell_session::captured& shell_session::capture_once(const std::string& command,
                                                           clock::time_point deadline) {
  if (const auto it = answered_.find(command); it != answered_.end()) return it->second;
  return answered_.emplace(command, capture(command, deadline)).first->second;
}

void shell_session::send_raw(std::string_view bytes, std::string_view what,
                             clock::time_point deadline) {
  port_.write(bytes, deadline);
  log_.note(fmt::format("sent {} ({} bytes)", what, bytes.size()));
}

std::string shell_session::last_line() const { return last_line_; }

}  // namespace hil::shell
