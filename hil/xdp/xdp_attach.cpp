#include "hil/xdp/xdp_attach.hpp"

#include <linux/capability.h>
#include <net/if.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

#if HIL_XDP_ENABLED
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "hil/xdp/detail/embedded_objects.hpp"
#endif

namespace hil::xdp {

#if HIL_XDP_ENABLED
namespace {

// The effective capabilities CAP_NET_ADMIN and CAP_BPF-or-CAP_SYS_ADMIN; the missing ones named.
std::string missing_capabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, 2> data{};
  if (::syscall(SYS_capget, &header, data.data()) != 0) return "capabilities unreadable";
  const auto has = [&](int cap) {
    return (data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap)) != 0;
  };
  constexpr int cap_bpf = 39;  // CAP_BPF (Linux 5.8); older headers lack the name
  std::string missing;
  if (!has(CAP_NET_ADMIN)) missing = "CAP_NET_ADMIN";
  if (!has(cap_bpf) && !has(CAP_SYS_ADMIN)) {
    missing += missing.empty() ? "CAP_BPF" : " and CAP_BPF";
  }
  return missing;
}

}  // namespace
#endif

std::string_view to_string(attach_mode m) {
  return m == attach_mode::native ? "native" : "generic (skb)";
}

support xdp_support() {
#if HIL_XDP_ENABLED
  if (const auto missing = missing_capabilities(); !missing.empty()) {
    return {false, fmt::format("XDP needs {} (run as root)", missing)};
  }
  return {true, {}};
#else
  return {false, "hilperf was built without its XDP programs (missing at build time: " +
                     std::string(HIL_XDP_MISSING) + ")"};
#endif
}

#if HIL_XDP_ENABLED
namespace {

// The last messages libbpf and libxdp printed (a verifier's log, a refused mode), quoted in the
// errors this file throws instead of being printed where they interleave with a run's output.
class library_log {
 public:
  static library_log& instance() {
    static library_log log;
    return log;
  }
  void add(const char* format, va_list args) {
    std::array<char, 1024> line{};
    std::vsnprintf(line.data(), line.size(), format, args);
    const std::lock_guard lock(mutex_);
    text_ += line.data();
    if (text_.size() > limit) text_.erase(0, text_.size() - limit);
  }
  // What was logged since the last take(), emptied.
  std::string take() {
    const std::lock_guard lock(mutex_);
    return std::exchange(text_, {});
  }

 private:
  static constexpr std::size_t limit = 4096;
  std::mutex mutex_;
  std::string text_;
};

int log_libbpf(enum libbpf_print_level level, const char* format, va_list args) {
  if (level != LIBBPF_DEBUG) library_log::instance().add(format, args);
  return 0;
}

int log_libxdp(enum libxdp_print_level level, const char* format, va_list args) {
  if (level != LIBXDP_DEBUG) library_log::instance().add(format, args);
  return 0;
}

void capture_library_logs() {
  static std::once_flag once;
  std::call_once(once, [] {
    libbpf_set_print(log_libbpf);
    libxdp_set_print(log_libxdp);
  });
}

std::string with_log(std::string message) {
  auto log = library_log::instance().take();
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  if (!log.empty()) message += " (libbpf/libxdp said: " + log + ")";
  return message;
}

struct object_bytes {
  const unsigned char* data;
  std::size_t size;
  const char* program;    // the function's name in the object
  unsigned int run_prio;  // its place among the dispatcher's programs: the port first
};

object_bytes object_of(program_kind kind) {
  if (kind == program_kind::frame_counter) {
    return {detail::frame_counter_object, detail::frame_counter_object_size, "hil_count", 20};
  }
  return {detail::port_shaper_object, detail::port_shaper_object_size, "hil_port", 10};
}

std::string_view kind_name(program_kind kind) {
  return kind == program_kind::frame_counter ? "XDP frame counter" : "XDP port emulation";
}

}  // namespace

struct xdp_attachment::impl {
  program_kind kind;
  std::string ifname;
  int ifindex = 0;
  std::vector<unsigned char> bytes;  // libbpf reads the ELF in place: a writable copy
  bpf_object* object = nullptr;
  xdp_program* program = nullptr;
  attach_mode mode = attach_mode::native;
  std::string native_refused;
  bool dispatched = false;
  bool attached = false;
  sys::unique_fd port_next;  // chained: the port's one-slot program array, ours in slot 0
  std::size_t cpus = 1;

  ~impl() { close(); }

  void close() noexcept {
    if (program != nullptr) xdp_program__close(program);
    if (object != nullptr) bpf_object__close(object);
    program = nullptr;
    object = nullptr;
  }

  // A fresh object, opened from the embedded bytes, not loaded: 0 or a negative errno.
  int open_object() {
    close();
    const auto obj = object_of(kind);
    bytes.assign(obj.data, obj.data + obj.size);
    object = bpf_object__open_mem(bytes.data(), bytes.size(), nullptr);
    return object == nullptr ? -errno : 0;
  }

  // A fresh object and program (a failed attach may leave the last one loaded for a dispatcher).
  int open() {
    if (const int err = open_object(); err != 0) return err;
    const auto obj = object_of(kind);
    xdp_program_opts opts{};  // not DECLARE_LIBXDP_OPTS: a statement expression in C++
    opts.sz = sizeof(opts);
    opts.obj = object;
    opts.prog_name = obj.program;
    xdp_program* p = xdp_program__create(&opts);
    if (const long err = libxdp_get_error(p); err != 0) return static_cast<int>(err);
    program = p;
    return xdp_program__set_run_prio(program, obj.run_prio);
  }

  // Attaches in mode; 0 or a negative errno.
  int attach(xdp_attach_mode m) {
    if (const int err = open(); err != 0) return err;
    return xdp_program__attach(program, ifindex, m, 0);
  }

  // Loads the object's program without attaching it: its fd, or a negative errno.
  int load_alone() {
    if (const int err = open_object(); err != 0) return err;
    if (const int err = bpf_object__load(object); err != 0) return err;
    bpf_program* p = bpf_object__find_program_by_name(object, object_of(kind).program);
    return p == nullptr ? -ENOENT : bpf_program__fd(p);
  }

  // The port_next map of the program attached alone to this interface when it is hil_port (the
  // port emulation, held by another process); an empty fd otherwise, or when the program cannot
  // be inspected.
  [[nodiscard]] sys::unique_fd port_slot_map() const {
    bpf_xdp_query_opts q{};  // not LIBBPF_OPTS: a statement expression in C++
    q.sz = sizeof(q);
    if (bpf_xdp_query(ifindex, 0, &q) != 0 || q.prog_id == 0 ||
        q.attach_mode == 4 /* XDP_ATTACHED_MULTI */) {
      return sys::unique_fd();
    }
    const sys::unique_fd prog(bpf_prog_get_fd_by_id(q.prog_id));
    if (!prog) return sys::unique_fd();
    bpf_prog_info info{};
    __u32 len = sizeof(info);
    if (bpf_obj_get_info_by_fd(prog.get(), &info, &len) != 0 ||
        std::string_view(info.name) != object_of(program_kind::port_shaper).program) {
      return sys::unique_fd();
    }
    std::vector<__u32> ids(info.nr_map_ids);
    info = bpf_prog_info{};
    info.nr_map_ids = static_cast<__u32>(ids.size());
    info.map_ids = reinterpret_cast<std::uintptr_t>(ids.data());
    len = sizeof(info);
    if (bpf_obj_get_info_by_fd(prog.get(), &info, &len) != 0) return sys::unique_fd();
    for (const auto id : ids) {
      sys::unique_fd map(bpf_map_get_fd_by_id(id));
      bpf_map_info m{};
      __u32 mlen = sizeof(m);
      if (map && bpf_obj_get_info_by_fd(map.get(), &m, &mlen) == 0 &&
          std::string_view(m.name) == "port_next") {
        return map;
      }
    }
    return sys::unique_fd();
  }

  // When the interface runs hil_port alone (no dispatcher to chain programs), loads this program
  // and puts it in the port's port_next slot, where the port tail-calls it for every frame it
  // passes: true when it did, false when there is no such port. Throws when the slot is taken
  // or the kernel refuses.
  bool chain_behind_port() {
    auto map = port_slot_map();
    if (!map) return false;
    const __u32 zero = 0;
    __u32 held = 0;
    if (bpf_map_lookup_elem(map.get(), &zero, &held) == 0) {
      throw std::system_error(EBUSY, std::generic_category(),
                              fmt::format("{}: the port emulation on {} already passes its frames "
                                          "to program {} (another counter)",
                                          kind_name(kind), ifname, held));
    }
    const int fd = load_alone();
    if (fd < 0) {
      throw std::system_error(-fd, std::generic_category(),
                              with_log(fmt::format("{}: loading it to run behind the port "
                                                   "emulation on {}",
                                                   kind_name(kind), ifname)));
    }
    if (bpf_map_update_elem(map.get(), &zero, &fd, BPF_ANY) != 0) {
      sys::throw_last_errno(with_log(
          fmt::format("{}: putting it behind the port emulation on {}", kind_name(kind), ifname)));
    }
    bpf_xdp_query_opts q{};
    q.sz = sizeof(q);
    if (bpf_xdp_query(ifindex, 0, &q) == 0 && q.attach_mode == 2 /* XDP_ATTACHED_SKB */) {
      mode = attach_mode::generic;
    }
    port_next = std::move(map);
    return true;
  }

  void record_how() {
    xdp_multiprog* mp = xdp_multiprog__get_from_ifindex(ifindex);
    if (libxdp_get_error(mp) == 0 && mp != nullptr) {
      dispatched = !xdp_multiprog__is_legacy(mp);
      mode = xdp_multiprog__attach_mode(mp) == XDP_MODE_SKB ? attach_mode::generic
                                                            : attach_mode::native;
      xdp_multiprog__close(mp);
    }
  }

  int map_fd(std::string_view map) const {
    const int fd = bpf_object__find_map_fd_by_name(object, std::string(map).c_str());
    if (fd < 0) {
      throw std::system_error(ENOENT, std::generic_category(),
                              fmt::format("{}: no map '{}'", kind_name(kind), map));
    }
    return fd;
  }
};

xdp_attachment::xdp_attachment(program_kind kind, const std::string& ifname, attach_preference pref)
    : impl_(std::make_unique<impl>()) {
  if (const auto s = xdp_support(); !s.available) {
    throw std::system_error(ENOTSUP, std::generic_category(),
                            fmt::format("{} on {}: {}", kind_name(kind), ifname, s.reason));
  }
  capture_library_logs();
  (void)library_log::instance().take();
  impl_->kind = kind;
  impl_->ifname = ifname;
  impl_->ifindex = static_cast<int>(::if_nametoindex(ifname.c_str()));
  if (impl_->ifindex == 0) {
    sys::throw_last_errno(
        fmt::format("{}: no interface '{}' in this network namespace", kind_name(kind), ifname));
  }
  const int cpus = libbpf_num_possible_cpus();
  impl_->cpus = cpus > 0 ? static_cast<std::size_t>(cpus) : 1;

  // Behind a port emulation that runs alone, in the slot it calls, instead of beside it
  // (docs/xdp.md, "Behind the port").
  if (kind == program_kind::frame_counter && impl_->chain_behind_port()) {
    impl_->attached = true;
    (void)library_log::instance().take();
    return;
  }
  int err = 0;
  if (pref != attach_preference::generic_only) {
    err = impl_->attach(XDP_MODE_NATIVE);
    if (err == 0) {
      impl_->mode = attach_mode::native;
    } else {
      impl_->native_refused = with_log(std::strerror(-err));
      if (pref == attach_preference::native_only) {
        throw std::system_error(-err, std::generic_category(),
                                fmt::format("{}: native XDP on {} refused: {}", kind_name(kind),
                                            ifname, impl_->native_refused));
      }
    }
  }
  if (pref == attach_preference::generic_only || err != 0) {
    err = impl_->attach(XDP_MODE_SKB);
    if (err != 0) {
      const std::string native =
          impl_->native_refused.empty() ? "" : "; native: " + impl_->native_refused;
      throw std::system_error(
          -err, std::generic_category(),
          with_log(fmt::format("{}: attaching to {} failed: generic: {}{}", kind_name(kind), ifname,
                               std::strerror(-err), native)));
    }
    impl_->mode = attach_mode::generic;
  }
  impl_->attached = true;
  impl_->record_how();
  (void)library_log::instance().take();
}

void xdp_attachment::detach() {
  if (!impl_ || !impl_->attached) return;
  if (impl_->port_next) {
    const __u32 zero = 0;
    const int err = bpf_map_delete_elem(impl_->port_next.get(), &zero);
    impl_->attached = false;
    impl_->port_next.reset();
    if (err != 0 && errno != ENOENT) {
      sys::throw_last_errno(fmt::format("{}: taking it from behind the port emulation on {}",
                                        kind_name(impl_->kind), impl_->ifname));
    }
    return;
  }
  const auto m = impl_->mode == attach_mode::native ? XDP_MODE_NATIVE : XDP_MODE_SKB;
  const int err = xdp_program__detach(impl_->program, impl_->ifindex, m, 0);
  impl_->attached = false;
  if (err != 0) {
    throw std::system_error(
        -err, std::generic_category(),
        with_log(fmt::format("{}: detaching from {}", kind_name(impl_->kind), impl_->ifname)));
  }
}

void xdp_attachment::update(std::string_view map, const void* key, const void* value,
                            std::uint64_t flags) {
  if (::bpf_map_update_elem(impl_->map_fd(map), key, value, flags) != 0) {
    sys::throw_last_errno(
        fmt::format("{} on {}: updating map '{}'", kind_name(impl_->kind), impl_->ifname, map));
  }
}

void xdp_attachment::lookup(std::string_view map, const void* key, void* value,
                            std::uint64_t flags) const {
  if (::bpf_map_lookup_elem_flags(impl_->map_fd(map), key, value, flags) != 0) {
    sys::throw_last_errno(
        fmt::format("{} on {}: reading map '{}'", kind_name(impl_->kind), impl_->ifname, map));
  }
}

bool xdp_attachment::erase(std::string_view map, const void* key) {
  if (::bpf_map_delete_elem(impl_->map_fd(map), key) == 0) return true;
  if (errno == ENOENT) return false;
  sys::throw_last_errno(
      fmt::format("{} on {}: deleting from map '{}'", kind_name(impl_->kind), impl_->ifname, map));
}

#else  // built without the programs: nothing to attach

struct xdp_attachment::impl {
  std::string ifname;
  attach_mode mode = attach_mode::generic;
  std::string native_refused;
  bool dispatched = false;
  std::size_t cpus = 1;
};

xdp_attachment::xdp_attachment(program_kind kind, const std::string& ifname,
                               attach_preference /*pref*/) {
  throw std::system_error(
      ENOTSUP, std::generic_category(),
      fmt::format("{} on {}: {}",
                  kind == program_kind::frame_counter ? "XDP frame counter" : "XDP port emulation",
                  ifname, xdp_support().reason));
}

void xdp_attachment::detach() {}

void xdp_attachment::update(std::string_view /*map*/, const void* /*key*/, const void* /*value*/,
                            std::uint64_t /*flags*/) {
  throw std::system_error(ENOTSUP, std::generic_category(), xdp_support().reason);
}

void xdp_attachment::lookup(std::string_view /*map*/, const void* /*key*/, void* /*value*/,
                            std::uint64_t /*flags*/) const {
  throw std::system_error(ENOTSUP, std::generic_category(), xdp_support().reason);
}

bool xdp_attachment::erase(std::string_view /*map*/, const void* /*key*/) {
  throw std::system_error(ENOTSUP, std::generic_category(), xdp_support().reason);
}

#endif

xdp_attachment::~xdp_attachment() {
  try {
    detach();
  } catch (const std::exception& e) {
    sys::report_destructor_failure("xdp_attachment", e.what());
  }
}

xdp_attachment::xdp_attachment(xdp_attachment&&) noexcept = default;
xdp_attachment& xdp_attachment::operator=(xdp_attachment&& other) noexcept {
  if (this != &other) {
    try {
      detach();
    } catch (const std::exception& e) {
      sys::report_destructor_failure("xdp_attachment", e.what());
    }
    impl_ = std::move(other.impl_);
  }
  return *this;
}

const std::string& xdp_attachment::ifname() const noexcept { return impl_->ifname; }
attach_mode xdp_attachment::mode() const noexcept { return impl_->mode; }
const std::string& xdp_attachment::native_refused() const noexcept { return impl_->native_refused; }
bool xdp_attachment::dispatched() const noexcept { return impl_->dispatched; }
bool xdp_attachment::behind_port() const noexcept {
#if HIL_XDP_ENABLED
  return static_cast<bool>(impl_->port_next);
#else
  return false;
#endif
}
std::size_t xdp_attachment::possible_cpus() const noexcept { return impl_->cpus; }

}  // namespace hil::xdp
