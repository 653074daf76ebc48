// rfc2217_link over libgensio's C API (Debian's libgensio-dev 2.6): the telnet and RFC 2217 code
// is libgensio's; this file owns its objects and keeps it from touching the embedding process.
//
// Why the C API, and which calls:
//   - Reads and writes use gensio_set_sync's gensio_read_s / gensio_write_s with a timeout: they
//     map one to one onto port's read_some(deadline) and write(bytes, deadline), and a read that
//     times out is taken off libgensio's queue before it returns. The link turns synchronous
//     once the line is set: the server's answers arrive as reads, and a synchronous gensio reads
//     only while a read waits.
//   - The open and the serial settings use the asynchronous calls (gensio_open, sergensio_baud…)
//     with a completion record owned here, and wait on a waiter with the deadline's timeout. The
//     blocking forms do not fit: gensio_open_s has no timeout, and sergensio_*_b_timeout keeps
//     its completion on its stack, so a deadline passed before the server answered would leave
//     libgensio (which keeps the request up to 5 s) a pointer into a returned frame.
//   - libgensiocpp wraps the same calls and adds nothing a deadline needs.
//
// What it keeps from the process that embeds it:
//   - No gensio_os_proc_setup: it blocks SIGCHLD, SIGPIPE and the wake signal in the caller's mask
//     and replaces SIGCHLD's handler, once for the whole process (one static record in
//     libgensio). No gensio_default_os_hnd: a process-wide os funcs whose wake signal (SIGUSR1)
//     is blocked. Each link has an os funcs of its own with wake signal 0 (the selector's
//     sigaddset of 0 fails, so no signal is blocked or sent): its selector is used by one thread
//     at a time, so no other thread needs waking.
//   - libgensio's sockets send without MSG_NOSIGNAL, so a write to a server that hung up raises
//     SIGPIPE, which would end the process: every call into libgensio holds SIGPIPE back in the
//     calling thread and discards one raised meanwhile (held_sigpipe); the write then fails with
//     "the server closed the connection".
//   - libgensio keeps the first os funcs it is given in globals of its own (gensio.c's o_base,
//     reg_o) and calls through them for the rest of the process, so that one must never be freed:
//     an anchor os funcs is that first one, used once and kept (anchor_libgensio).
#include <gensio/gensio.h>
#include <gensio/gensio_err.h>
#include <gensio/gensio_os_funcs_public.h>
#include <gensio/gensio_unix.h>
#include <gensio/sergensio.h>
#include <pthread.h>
#include <signal.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

#include "hil/console/detail/rfc2217.hpp"

namespace hil::console::detail {
namespace {

using namespace std::chrono_literals;

// libgensio's error codes (GE_*), their text gensio_err_to_str's; the ones a caller may test for
// compare equal to std::errc's conditions.
class gensio_category_t final : public std::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "gensio"; }
  [[nodiscard]] std::string message(int code) const override { return gensio_err_to_str(code); }
  [[nodiscard]] std::error_condition default_error_condition(int code) const noexcept override {
    switch (code) {
      case GE_CONNREFUSE:
        return std::errc::connection_refused;
      case GE_TIMEDOUT:
        return std::errc::timed_out;
      case GE_NOTSUP:
        return std::errc::not_supported;
      case GE_HOSTDOWN:
        return std::errc::host_unreachable;
      case GE_REMCLOSE:
        return std::errc::connection_reset;
      case GE_NOMEM:
        return std::errc::not_enough_memory;
      default:
        return {code, *this};
    }
  }
};

const std::error_category& gensio_category() {
  static const gensio_category_t category;
  return category;
}

rfc2217_fault fault_of(int code) {
  switch (code) {
    case GE_CONNREFUSE:
      return rfc2217_fault::refused;
    case GE_HOSTDOWN:
    case GE_NOTFOUND:
    case GE_UNKNOWN_NAME_ERROR:
    case GE_NAME_ERROR:
    case GE_NAME_SERVER_FAILURE:
    case GE_NAME_INVALID:
    case GE_NAME_NET_NOT_UP:
      return rfc2217_fault::unreachable;
    case GE_TIMEDOUT:
      return rfc2217_fault::no_answer;
    case GE_REMCLOSE:
    case GE_IOERR:
      return rfc2217_fault::closed;
    case GE_NOTSUP:
      return rfc2217_fault::not_rfc2217;
    default:
      return rfc2217_fault::other;
  }
}

// Throws std::system_error for libgensio's code: "<step> the console <name> (<likely cause>)",
// what() then adding libgensio's text.
[[noreturn]] void fail(int code, std::string_view step, const std::string& name,
                       rfc2217_fault fault) {
  throw std::system_error(code, gensio_category(),
                          fmt::format("{} the console {} ({})", step, name, likely_cause(fault)));
}
[[noreturn]] void fail(int code, std::string_view step, const std::string& name) {
  fail(code, step, name, fault_of(code));
}

// RAII: SIGPIPE held back in this thread for the scope's life (the rest of the mask as it was);
// one raised meanwhile, when none was pending before, is taken off before the mask is restored.
class held_sigpipe {
 public:
  held_sigpipe() noexcept {
    ::sigemptyset(&pipe_);
    ::sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    ::sigpending(&pending);
    was_pending_ = ::sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~held_sigpipe() {
    sigset_t pending;
    ::sigpending(&pending);
    if (!was_pending_ && ::sigismember(&pending, SIGPIPE) == 1) {
      const timespec now{};
      ::sigtimedwait(&pipe_, nullptr, &now);
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  held_sigpipe(const held_sigpipe&) = delete;
  held_sigpipe& operator=(const held_sigpipe&) = delete;

 private:
  sigset_t pipe_{};
  sigset_t old_{};
  bool was_pending_ = false;
};

// A timeout for libgensio: what is left until deadline, 0 once it passed.
gensio_time time_left(rfc2217_link::clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - rfc2217_link::clock::now());
  const std::int64_t ns = std::max<std::int64_t>(left.count(), 0);
  return {ns / 1'000'000'000, static_cast<std::int32_t>(ns % 1'000'000'000)};
}

// Until the line is set and the link synchronous: what the console says is dropped, as a serial
// device's input is flushed at its open (it is not this run's); the server's modem and line
// state reports are not needed.
int drop_until_set(gensio* /*io*/, void* /*user_data*/, int event, int /*err*/,
                   unsigned char* /*buf*/, gensiods* /*buflen*/, const char* const* /*auxdata*/) {
  return event == GENSIO_EVENT_READ ? 0 : GE_NOTSUP;  // *buflen untouched: all of it taken
}

// A new os funcs of its own (wake signal 0: see the top of the file); throws for code != 0.
gensio_os_funcs* new_os_funcs(int& code) {
  gensio_os_funcs* o = nullptr;
  code = gensio_unix_funcs_alloc(nullptr, 0, &o);
  if (code == 0 && o == nullptr) code = GE_NOMEM;
  return o;
}

// libgensio's process-wide set-up, done once through an os funcs that is never freed (the top of
// the file says why): a gensio allocated and freed unopened (the connect string's host is
// numeric, so nothing is resolved or sent).
void anchor_libgensio(const std::string& name) {
  static const int code = [] {
    int rc = 0;
    gensio_os_funcs* anchor = new_os_funcs(rc);
    if (rc != 0) return rc;
    gensio* io = nullptr;
    rc = str_to_gensio("telnet(rfc2217),tcp,127.0.0.1,9", anchor, drop_until_set, nullptr, &io);
    if (rc == 0) gensio_free(io);
    return rc;
  }();
  if (code != 0) fail(code, "setting up libgensio for", name);
}

struct os_funcs_free {
  void operator()(gensio_os_funcs* o) const noexcept { gensio_os_funcs_free(o); }
};

}  // namespace

// libgensio's objects for one link, released in reverse order of their members: the connection
// closed (bounded) and freed, then the waiter, then the os funcs. The completion records are
// members, so a callback libgensio delivers late (while the destructor closes) finds them alive.
struct rfc2217_link::state {
  std::string name;
  std::unique_ptr<gensio_os_funcs, os_funcs_free> os;
  gensio_waiter* waiter = nullptr;
  gensio* io = nullptr;
  bool opening = false;  // gensio_open was called: a close is owed
  bool opened = false;   // open_done came
  int open_error = 0;
  bool closed = false;    // close_done came
  bool answered = false;  // a serial setting's done came
  int setting_error = 0;
  unsigned int setting_value = 0;

  explicit state(std::string console) : name(std::move(console)) {
    int code = 0;
    os.reset(new_os_funcs(code));
    if (code != 0) fail(code, "setting up libgensio for", name);
    waiter = gensio_os_funcs_alloc_waiter(os.get());
    if (waiter == nullptr) fail(GE_NOMEM, "setting up libgensio for", name);
  }
  ~state() {
    const held_sigpipe held;  // the close may still send
    if (io != nullptr) {
      if (opening && gensio_close(io, &state::on_closed, this) == 0) {
        wait_until([this] { return closed; }, clock::now() + 2s);
      }
      gensio_free(io);
    }
    if (waiter != nullptr) gensio_os_funcs_free_waiter(os.get(), waiter);
  }
  state(const state&) = delete;
  state& operator=(const state&) = delete;

  // Services libgensio until done() or deadline; whether done() holds.
  template <class Done>
  bool wait_until(Done done, clock::time_point deadline) {
    while (!done()) {
      gensio_time left = time_left(deadline);
      if (gensio_os_funcs_wait(os.get(), waiter, 1, &left) != 0) return done();
    }
    return true;
  }

  using setting_call = int (*)(sergensio*, unsigned int, sergensio_done, void*);

  // Asks the server for one serial setting (call with value), named what, and waits for its
  // answer by deadline; throws when the server does not answer, fails it, or sets another value.
  void ask(setting_call call, unsigned int value, std::string_view what,
           clock::time_point deadline) {
    const std::string step = fmt::format("setting {} on", what);
    sergensio* sio = gensio_to_sergensio(io);
    if (sio == nullptr) fail(GE_NOTSUP, step, name);
    answered = false;
    if (const int rc = call(sio, value, &state::on_setting, this); rc != 0) fail(rc, step, name);
    // ser2net leaves a setting its device refuses unanswered (libgensio gives up after 5 s):
    // on a connection that took RFC 2217, no answer is a refusal.
    if (!wait_until([this] { return answered; }, deadline)) {
      fail(GE_TIMEDOUT, step, name, rfc2217_fault::setting_refused);
    }
    if (setting_error == GE_TIMEDOUT) fail(GE_TIMEDOUT, step, name, rfc2217_fault::setting_refused);
    if (setting_error != 0) fail(setting_error, step, name);
    if (setting_value == value) return;
    throw std::system_error(
        std::make_error_code(std::errc::invalid_argument),
        fmt::format("{} the console {}: the server set {} instead of {} ({})", step, name,
                    setting_value, value, likely_cause(rfc2217_fault::setting_refused)));
  }

  static void on_opened(gensio* /*io*/, int err, void* self) {
    auto* s = static_cast<state*>(self);
    s->opened = true;
    s->open_error = err;
    gensio_os_funcs_wake(s->os.get(), s->waiter);
  }
  static void on_closed(gensio* /*io*/, void* self) {
    auto* s = static_cast<state*>(self);
    s->closed = true;
    gensio_os_funcs_wake(s->os.get(), s->waiter);
  }
  static void on_setting(sergensio* /*sio*/, int err, unsigned int value, void* self) {
    auto* s = static_cast<state*>(self);
    s->answered = true;
    s->setting_error = err;
    s->setting_value = value;
    gensio_os_funcs_wake(s->os.get(), s->waiter);
  }
};

rfc2217_link::rfc2217_link(std::string_view address, const rfc2217_settings& settings,
                           clock::time_point deadline, std::string name) {
  const std::string connect = gensio_connect_string(address);
  const held_sigpipe held;
  anchor_libgensio(name);
  state_ = std::make_unique<state>(std::move(name));
  state& s = *state_;
  if (const int rc = str_to_gensio(connect.c_str(), s.os.get(), drop_until_set, nullptr, &s.io);
      rc != 0) {
    fail(rc, "connecting to", s.name);
  }
  // An OS error at connect is a network without a route there, most of the time.
  const auto connect_fault = [](int code) {
    return code == GE_OSERR ? rfc2217_fault::unreachable : fault_of(code);
  };
  if (const int rc = gensio_open(s.io, &state::on_opened, &s); rc != 0) {
    fail(rc, "connecting to", s.name, connect_fault(rc));
  }
  s.opening = true;
  if (!s.wait_until([&] { return s.opened; }, deadline)) fail(GE_TIMEDOUT, "connecting to", s.name);
  if (s.open_error != 0) {
    s.opening = false;  // a failed open leaves nothing to close
    fail(s.open_error, "connecting to", s.name, connect_fault(s.open_error));
  }
  // The server's answers arrive as reads: reading stays on (and the console's bytes dropped)
  // until the line is set, then the link turns synchronous.
  gensio_set_read_callback_enable(s.io, true);
  s.ask(sergensio_baud, static_cast<unsigned int>(settings.baud), "the baud rate", deadline);
  baud_ = settings.baud;  // what the server answered it set
  s.ask(sergensio_datasize, 8, "8 data bits", deadline);
  s.ask(sergensio_parity, SERGENSIO_PARITY_NONE, "no parity", deadline);
  s.ask(sergensio_stopbits, 1, "1 stop bit", deadline);
  if (settings.rtscts) {
    s.ask(sergensio_flowcontrol, SERGENSIO_FLOWCONTROL_RTS_CTS, "RTS/CTS flow control", deadline);
  } else {
    s.ask(sergensio_flowcontrol, SERGENSIO_FLOWCONTROL_NONE, "no flow control", deadline);
  }
  if (const int rc = gensio_set_sync(s.io); rc != 0) fail(rc, "connecting to", s.name);
}

rfc2217_link::~rfc2217_link() = default;

std::string rfc2217_link::read_some(clock::time_point deadline, std::size_t max) {
  const held_sigpipe held;
  std::string out(max, '\0');
  gensiods count = 0;
  gensio_time left = time_left(deadline);
  if (const int rc = gensio_read_s(state_->io, &count, out.data(), out.size(), &left); rc != 0) {
    fail(rc, "reading", state_->name);
  }
  out.resize(count);
  return out;
}

void rfc2217_link::write(std::string_view bytes, clock::time_point deadline) {
  const held_sigpipe held;
  gensiods count = 0;
  gensio_time left = time_left(deadline);
  if (const int rc = gensio_write_s(state_->io, &count, bytes.data(), bytes.size(), &left);
      rc != 0) {
    fail(rc, "writing to", state_->name);
  }
  if (count < bytes.size()) {
    throw std::system_error(std::make_error_code(std::errc::timed_out),
                            "the console " + state_->name + " took no more input (flow control?)");
  }
}

}  // namespace hil::console::detail
