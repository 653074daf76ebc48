#include "hil/shell/file_transfer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <regex>
#include <vector>

#include "hil/shell/digest.hpp"

namespace hil::shell {

namespace {

constexpr const char* ready = "@@hilperf-ready@@";

// The tools a transfer needs that the board's shell cannot find, asked once a session (a case
// puts two files, a board run many).
std::vector<std::string> missing_tools(shell_session& shell, clock::time_point deadline) {
  const auto& found = shell.capture_once(
      "for t in head base64 sha256sum chmod mv; do command -v $t >/dev/null 2>&1 || echo "
      "\"missing $t\"; done",
      deadline);
  std::vector<std::string> missing;
  static const std::regex line(R"(missing (\S+))");
  for (std::sregex_iterator it(found.output.begin(), found.output.end(), line), end; it != end;
       ++it) {
    missing.push_back((*it)[1]);
  }
  return missing;
}

// The board's SHA-256 of remote; nullopt when it is not a regular file.
std::optional<std::string> board_sum(shell_session& shell, std::string_view remote,
                                     clock::time_point deadline) {
  const auto r = shell.capture(
      "[ -f " + shell_word(remote) + " ] && sha256sum < " + shell_word(remote), deadline);
  static const std::regex sum(R"(^([0-9a-f]{64}) +-$)");
  std::smatch m;
  for (std::size_t at = 0; at < r.output.size();) {
    const auto end = r.output.find('\n', at);
    const std::string line = r.output.substr(at, end - at);
    if (std::regex_match(line, m, sum)) return m[1].str();
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace

put_outcome put_file(shell_session& shell, std::string_view content, std::string_view remote,
                     unsigned mode, clock::time_point deadline) {
  if (const auto missing = missing_tools(shell, deadline); !missing.empty()) {
    throw shell_error(fmt::format("the board at {} has no {}: files cannot cross its console",
                                  shell.where().name(), fmt::join(missing, ", ")));
  }
  const std::string sum = sha256_hex(content);
  if (board_sum(shell, remote, deadline) == sum) return put_outcome::already_there;
  const std::string part = std::string(remote) + ".part";
  const std::string data = base64_lines(content);
  const int status = shell.run(
      fmt::format("echo \"@@hilperf-\"\"ready@@\" && head -c {} | base64 -d > {}", data.size(),
                  shell_word(part)),
      [&](std::string_view line) {
        if (line == ready) {
          shell.send_raw(data, fmt::format("{} in base64", remote), deadline);
        }
      },
      deadline, nullptr, false);
  const auto arrived = board_sum(shell, part, deadline);
  if (status != 0 || arrived != sum) {
    shell.capture("rm -f " + shell_word(part), deadline);
    throw shell_error(fmt::format(
        "the copy of {} sent through the console {} arrived changed (exit status {}; sent SHA-256 "
        "{}, the board has {}): a console that loses bytes (no flow control at this baud rate?)",
        remote, shell.where().name(), status, sum, arrived.value_or("no file")));
  }
  const auto placed =
      shell.capture(fmt::format("chmod {:o} {} && mv -f {} {}", mode, shell_word(part),
                                shell_word(part), shell_word(remote)),
                    deadline);
  if (placed.status != 0) {
    throw shell_error(fmt::format("the board at {} could not put {} in place: {}",
                                  shell.where().name(), remote, placed.output));
  }
  return put_outcome::sent;
}

std::optional<std::string> get_file(shell_session& shell, std::string_view remote,
                                    clock::time_point deadline, std::size_t max_bytes) {
  if (shell.capture("[ -f " + shell_word(remote) + " ]", deadline).status != 0) return std::nullopt;
  static const std::regex sum_line(R"(^([0-9a-f]{64}) +-$)");
  std::array<std::string, 2> arrived;
  for (std::size_t attempt = 0; attempt < arrived.size(); ++attempt) {
    std::string sum;
    std::string text;
    std::smatch m;
    const int status = shell.run(
        "sha256sum < " + shell_word(remote) + " && base64 < " + shell_word(remote),
        [&](std::string_view line) {
          const std::string l(line);
          if (sum.empty() && std::regex_match(l, m, sum_line)) {
            sum = m[1].str();
          } else if (const auto fragment = base64_fragment(line); !fragment.empty()) {
            if (text.size() + fragment.size() > max_bytes / 3 * 4 + 4) {
              throw shell_error(fmt::format("{} on the board at {} is larger than {} bytes", remote,
                                            shell.where().name(), max_bytes));
            }
            text += fragment;
          }  // else: a message among the lines (a kernel log line), not the file's
        },
        deadline, nullptr, false);
    if (status != 0) {
      throw shell_error(fmt::format("the board at {} could not read {} (exit status {})",
                                    shell.where().name(), remote, status));
    }
    // A sum line a message landed in is no sum: asked again, as a changed file is.
    const auto content = from_base64(text);
    if (content && !sum.empty() && sha256_hex(*content) == sum) return content;
    arrived.at(attempt) = fmt::format("board {}, arrived {}", sum.empty() ? "unreadable" : sum,
                                      content ? sha256_hex(*content) : "not base64");
  }
  throw shell_error(fmt::format(
      "{} read through the console {} arrived changed twice (SHA-256 {}; then {}): a console "
      "that loses or changes bytes",
      remote, shell.where().name(), arrived[0], arrived[1]));
}

}  // namespace hil::shell
