// One firmware iperf run at a DUT's console (firmware_run.hpp draws it). Every wait has its
// deadline; each step hilperf takes at the console (wake, set-up, start, abort, reset) is noted in
// the console log, so the log a case attaches shows what was typed and why.
//
// When does a prompt follow the end marker? A shell gives its prompt back once per command: a
// firmware whose command returns at once (ST67W6X, ESP-IDF, a zperf download) printed it before
// the run's lines, so none follows the end; one whose command blocks until the run ends (a zperf
// upload) prints it after. The run's text says which: the prompt is awaited after the end only
// when it is not in the text already, and its absence is noted, not fatal (the report is in hand;
// the next wake finds out whether the console is free).
#include "hil/firmware/firmware_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <span>
#include <utility>

#include "hil/console/transcript.hpp"

namespace hil::firmware {
namespace {

using std::chrono::milliseconds;

// How much of what a console said a message quotes: a line's worth.
constexpr std::size_t quote_limit = 80;

double seconds(milliseconds ms) { return std::chrono::duration<double>(ms).count(); }

// The last max bytes of text, quoted, with control bytes and bytes past ASCII escaped (\xNN): a
// wrong baud rate reads as bytes that are no text.
std::string quoted_tail(std::string_view text, std::size_t max = quote_limit) {
  const bool cut = text.size() > max;
  if (cut) text = text.substr(text.size() - max);
  std::string out = cut ? "\"..." : "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += u >= 0x80 ? fmt::format("\\x{:02x}", u) : console::escaped(std::string_view(&c, 1));
  }
  return out + "\"";
}

std::string described(std::span<const console::pattern> any) {
  std::string out;
  for (const auto& p : any) out += (out.empty() ? "" : " or ") + p.describe();
  return out;
}

// True when one of any came within timeout (the text through it read), false when none did.
bool awaited(console::terminal& t, std::span<const console::pattern> any, milliseconds timeout,
             std::string* text = nullptr) {
  try {
    auto m = t.expect(any, timeout);
    if (text != nullptr) *text += m.before + m.matched;
    return true;
  } catch (const console::console_timeout&) {
    return false;
  }
}

const console::pattern& prompt_of(const dialect& d, const run_limits& limits) {
  return limits.prompt ? *limits.prompt : d.prompt;
}

}  // namespace

void wake(console::terminal& t, const dialect& d, const run_limits& limits,
          const std::optional<console::pattern>& prompt) {
  const console::pattern& p = prompt ? *prompt : prompt_of(d, limits);
  t.read_all();
  t.note(fmt::format("waking the console: a line ending, then {}", p.describe()));
  t.type("");
  const std::vector<console::pattern> any{p};
  if (awaited(t, any, limits.prompt_timeout)) {
    t.read_all();  // a second prompt (a line ending the shell ran twice) is no news
    return;
  }
  const std::string came(t.buffer().unread());
  const std::string head =
      fmt::format("the console {} gave no prompt ({}) within {:.1f} s of a line ending",
                  t.where().name(), p.describe(), seconds(limits.prompt_timeout));
  if (came.empty()) {
    throw console_unreachable(
        head + ": nothing came (a wrong port, a board off or still booting, a console muted)");
  }
  throw console_unreachable(fmt::format(
      "{}: text came but no prompt, the last of it {} (a wrong baud rate reads as bytes past "
      "ASCII; else another firmware or another prompt)",
      head, quoted_tail(came)));
}

void set_up(console::terminal& t, const dialect& d, const std::vector<std::string>& commands,
            const std::vector<std::string>& replies, milliseconds timeout,
            const run_limits& limits) {
  if (replies.size() > commands.size()) {
    throw std::invalid_argument(
        fmt::format("{} set-up replies for {} commands", replies.size(), commands.size()));
  }
  const std::vector<console::pattern> prompt{prompt_of(d, limits)};
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const std::string& reply = i < replies.size() ? replies[i] : std::string();
    t.note(fmt::format("set-up {} of {}: \"{}\"{}", i + 1, commands.size(), commands[i],
                       reply.empty() ? "" : ", awaiting \"" + reply + "\""));
    t.type(commands[i]);
    // A command that returns at once prints its prompt before a reply its task logs later (the
    // ST67W6X's wifi_sta_connect may): then no second prompt follows the reply.
    bool prompted = false;
    if (!reply.empty()) {
      const std::vector<console::pattern> any{console::pattern::literal(reply)};
      std::string before;
      const bool came = awaited(t, any, timeout, &before);
      prompted = came && prompt.front().find(before).has_value();
      if (!came) {
        throw std::runtime_error(fmt::format(
            "set-up command \"{}\" at {}: its reply \"{}\" did not come within {:.1f} s; "
            "what came after it: {}",
            commands[i], t.where().name(), reply, seconds(timeout),
            quoted_tail(t.buffer().unread())));
      }
    }
    if (!prompted && !awaited(t, prompt, limits.prompt_timeout)) {
      throw std::runtime_error(fmt::format(
          "set-up command \"{}\" at {}: no prompt ({}) within {:.1f} s after it; what came "
          "after it: {}",
          commands[i], t.where().name(), prompt.front().describe(), seconds(limits.prompt_timeout),
          quoted_tail(t.buffer().unread())));
    }
  }
}

firmware_run::firmware_run(console::terminal& t, const dialect& d, iperf_request request,
                           run_limits limits)
    : terminal_(t), dialect_(d), request_(std::move(request)), limits_(std::move(limits)) {
  // Before anything is typed: a request the firmware cannot express throws here.
  const std::string command = dialect_.command(request_);
  terminal_.note(fmt::format("starting a {} iperf run: {}", dialect_.name, command));
  terminal_.type(command);
  open_ = true;
  text_ = command;
  command_size_ = command.size();
  started_ = std::chrono::steady_clock::now();
  const std::vector<console::pattern> ready =
      dialect_.ready ? dialect_.ready(request_) : std::vector<console::pattern>{};
  if (ready.empty()) return;
  // An end marker may come instead (a server that cannot bind ends at once): the run is over.
  std::vector<console::pattern> any = ready;
  for (auto& p : dialect_.end_markers(request_)) any.push_back(std::move(p));
  try {
    auto m = terminal_.expect(any, limits_.prompt_timeout);
    text_ += m.before + m.matched;
    ended_ = m.pattern >= ready.size();
    if (ended_) terminal_.note("the run ended before it said it was under way");
  } catch (const console::console_timeout&) {
    abort_run(
        fmt::format("the run did not say it was under way ({}) within {:.1f} s of its command",
                    described(ready), seconds(limits_.prompt_timeout)));
  } catch (...) {
    try {
      abort_run("the console failed while the run's start was awaited");
    } catch (const run_stuck&) {  // the console's own failure is the news
    }
    throw;
  }
  started_ = std::chrono::steady_clock::now();  // a server's run begins when its peer may start
}

firmware_run::~firmware_run() {
  if (!open_) return;
  try {
    abort_run("the run was left unfinished (a case failed or stopped in between)");
  } catch (...) {  // a destructor never throws; the console log says what happened
  }
}

const console::pattern& firmware_run::prompt() const noexcept {
  return prompt_of(dialect_, limits_);
}

firmware_report firmware_run::finish() {
  if (!open_) throw std::logic_error("finish() of a firmware run that is not under way");
  if (!ended_) {
    const auto markers = dialect_.end_markers(request_);
    const auto deadline = started_ + request_.duration + limits_.end_slack;
    const auto left = std::max(
        std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now()),
        milliseconds(0));
    if (!awaited(terminal_, markers, left, &text_)) {
      abort_run(fmt::format(
          "no end of the run ({}) within {:.1f} s of its start (its {} s and {:.1f} s of slack)",
          described(markers),
          seconds(std::chrono::duration_cast<milliseconds>(request_.duration + limits_.end_slack)),
          request_.duration.count(), seconds(limits_.end_slack)));
    }
  }
  open_ = false;
  terminal_.note("the run's end marker came");
  prompt_after_end();
  return dialect_.parse(text_);
}

void firmware_run::prompt_after_end() {
  const std::string_view run = std::string_view(text_).substr(command_size_);
  if (prompt().find(run)) return;  // given back at once: the run went on behind the shell
  const std::vector<console::pattern> any{prompt()};
  if (!awaited(terminal_, any, limits_.prompt_timeout)) {
    terminal_.note(
        fmt::format("no prompt within {:.1f} s of the run's end", seconds(limits_.prompt_timeout)));
  }
}

void firmware_run::abort_run(std::string_view why) {
  open_ = false;
  const std::string last = terminal_.buffer().last_line();
  terminal_.note(fmt::format("{}: aborting it", why));
  const auto markers = dialect_.end_markers(request_);
  const std::string abort = dialect_.abort ? dialect_.abort(request_) : std::string();
  std::string done;
  bool freed = false;
  if (abort.empty()) {
    done = fmt::format("{} has no command that stops this run", dialect_.name);
  } else {
    try {
      terminal_.type(abort);
      // The abort took when the run's end comes (ST67W6X: `iperf exit` after `iperf aborting
      // ...`), and the console is free when a line ending brings the prompt.
      freed = awaited(terminal_, markers, limits_.prompt_timeout);
      if (freed) wake(terminal_, dialect_, limits_);
      done = fmt::format(
          "\"{}\" typed: {}", abort,
          freed ? "the run ended and the prompt came back"
                : fmt::format("no end within {:.1f} s", seconds(limits_.prompt_timeout)));
    } catch (const std::exception& e) {
      freed = false;
      done = fmt::format("\"{}\" typed: {}", abort, e.what());
    }
  }
  terminal_.note(done);
  if (!freed && !limits_.reset_command.empty()) {
    std::string reset;
    try {
      terminal_.read_all();
      terminal_.type(limits_.reset_command);
      // A reset reboots: its banner comes before the prompt; a line ending once more if not.
      const std::vector<console::pattern> any{prompt()};
      freed = awaited(terminal_, any, limits_.prompt_timeout);
      if (!freed) {
        wake(terminal_, dialect_, limits_);
        freed = true;
      }
      reset = "the prompt came back";
    } catch (const std::exception& e) {
      reset = e.what();
    }
    done += fmt::format("; then \"{}\" typed: {}", limits_.reset_command, reset);
    terminal_.note(fmt::format("\"{}\" typed: {}", limits_.reset_command, reset));
  } else if (!freed) {
    done += "; no reset command to type (the profile names none)";
  }
  throw run_stuck(fmt::format("{}; {}{}; the console's last line before the abort: {}", why, done,
                              freed ? "" : "; the firmware may still be running it",
                              quoted_tail(last, 160)));
}

}  // namespace hil::firmware
