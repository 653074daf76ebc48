// One of hilperf's XDP programs attached to an interface, through libxdp, for this object's life.
//
// The programs (hil/xdp/bpf/*.bpf.c) are compiled at build time by clang and embedded in this
// library (ci/cmake/bpf.cmake). Attaching tries native (driver) XDP first and falls back to generic
// (skb) XDP when the driver or the interface refuses it — veth refuses native XDP above an MTU of
// about 3.5 KB, for instance — keeping the reason. libxdp puts the program behind its dispatcher
// when the kernel and a bpffs (/sys/fs/bpf) allow, so that several programs share an interface
// (the port emulation first, then the counter), and attaches it alone otherwise; a frame counter
// on an interface where the port emulation runs alone goes into the port's tail-call slot.
//
// A build without clang, libbpf or libxdp, or a process without the privileges, still has this
// class: support() says why XDP is unavailable and the constructor throws with that reason.
//
// Netlink calls run in the calling thread's network namespace: construct and destroy an
// attachment in the namespace of its interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hil::xdp {

// Whether XDP can be used here, and when not, why (one sentence a user can act on).
struct support {
  bool available = false;
  std::string reason;  // empty when available
};

// Built with the programs, and the process holds CAP_NET_ADMIN and CAP_BPF (or CAP_SYS_ADMIN).
[[nodiscard]] support xdp_support();

// The programs this library carries.
enum class program_kind { frame_counter, port_shaper };

enum class attach_preference { native_then_generic, native_only, generic_only };

// How the kernel runs the attached program.
enum class attach_mode { native, generic };
[[nodiscard]] std::string_view to_string(attach_mode m);

class xdp_attachment {
 public:
  // Loads program `kind` and attaches it to ifname as pref allows. Throws std::system_error naming
  // the interface, each mode tried and the kernel's or libxdp's reason (ENOTSUP when XDP is not
  // available: xdp_support()'s reason).
  xdp_attachment(program_kind kind, const std::string& ifname, attach_preference pref);
  // Detaches (a failure is reported on stderr: destructors do not throw).
  ~xdp_attachment();
  xdp_attachment(xdp_attachment&&) noexcept;
  xdp_attachment& operator=(xdp_attachment&&) noexcept;
  xdp_attachment(const xdp_attachment&) = delete;
  xdp_attachment& operator=(const xdp_attachment&) = delete;

  // Detaches now; throws std::system_error when the kernel refuses.
  void detach();

  [[nodiscard]] const std::string& ifname() const noexcept;
  [[nodiscard]] attach_mode mode() const noexcept;
  // Why native XDP was not used; empty when it was (or was not tried: generic_only).
  [[nodiscard]] const std::string& native_refused() const noexcept;
  // True when libxdp's dispatcher runs the program (other programs may share the interface).
  [[nodiscard]] bool dispatched() const noexcept;
  // True for a frame counter put behind a port emulation that runs alone on the interface: in the
  // port's one-slot program array (port_next), tail-called for every frame the port passes,
  // instead of attached (docs/xdp.md, "Behind the port"). mode() is then the port's.
  [[nodiscard]] bool behind_port() const noexcept;
  // The CPUs a per-CPU map holds a value for.
  [[nodiscard]] std::size_t possible_cpus() const noexcept;

  // bpf_map_update_elem on the program's map `map` (flags BPF_ANY …); throws std::system_error.
  void update(std::string_view map, const void* key, const void* value, std::uint64_t flags = 0);
  // bpf_map_lookup_elem_flags into value (for a per-CPU map, possible_cpus() values);
  // throws std::system_error.
  void lookup(std::string_view map, const void* key, void* value, std::uint64_t flags = 0) const;
  // bpf_map_delete_elem; false when the key was absent, throws std::system_error on other errors.
  bool erase(std::string_view map, const void* key);

  // A per-CPU map's values of key, one per possible CPU.
  template <typename T>
  [[nodiscard]] std::vector<T> lookup_per_cpu(std::string_view map, const void* key) const {
    std::vector<T> values(possible_cpus());
    lookup(map, key, values.data());
    return values;
  }

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace hil::xdp
