/* An Ethernet port emulated on the receiving end: a token bucket that charges every frame with its
 * size on the wire (the frame XDP sees, padded to 60 bytes, plus FCS, preamble, SFD and
 * inter-frame gap: 24 bytes) at the configured line rate, passes the frames the port could have
 * carried and drops the rest. The cost of the port lands on the receiving CPU, in the receiving
 * NAPI context, instead of on the sender's (where tbf's watchdog and the veth's wake-ups bind it).
 * It has no queue: tbf stays where a queue is the point.
 *
 * The bucket (tokens in bit-nanoseconds per second: see xdp_abi.h) is one for the whole port,
 * under a spin lock, since frames of one port may arrive on several CPUs; its counters are per
 * CPU. A frame that passes goes on to the program in port_next's one slot, if any (a tail call:
 * hilperf-peer's frame counter, where no libxdp dispatcher chains programs; docs/xdp.md), else to
 * the stack. Built by clang -target bpf (ci/cmake/bpf.cmake); attached by hil/xdp/port_shaper. */
#include <linux/bpf.h>

/* after the kernel types libbpf's headers use */
#include <bpf/bpf_helpers.h>

#include "hil/xdp/bpf/xdp_abi.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct hil_port_config);
} port_cfg SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct hil_port_state);
} port_state SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 2);
  __type(key, __u32);
  __type(value, struct hil_port_count);
} port_counts SEC(".maps");

/* What runs after the port for a frame it passes: empty (the tail call falls through to XDP_PASS)
 * unless another process put a program there. */
struct {
  __uint(type, BPF_MAP_TYPE_PROG_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u32);
} port_next SEC(".maps");

/* Refills st for the time from its last refill to now (not earlier than it: another CPU may have
 * refilled at a later clock reading), keeping the identity of xdp_abi.h. Called under the lock. */
static __always_inline void refill(struct hil_port_state* st, const struct hil_port_config* cfg,
                                   __u64 cap, __u64 now) {
  if (now <= st->last_ns) return;
  __u64 elapsed = now - st->last_ns;
  __u64 rate = cfg->rate_bps;
  __u64 room = cap > st->tokens ? cap - st->tokens : 0;
  __u64 to_fill = room / rate + (room % rate != 0 ? 1 : 0);
  if (elapsed >= to_fill) {
    st->full_ns += elapsed - to_fill;
    st->overflow_units += rate * to_fill - room;
    st->tokens = cap;
  } else {
    st->tokens += rate * elapsed; /* < room + rate: no overflow (user space bounds cap and rate) */
  }
  st->last_ns = now;
}

SEC("xdp")
int hil_port(struct xdp_md* ctx) {
  void* data = (void*)(long)ctx->data;
  void* end = (void*)(long)ctx->data_end;
  __u32 key = 0;
  struct hil_port_config* cfg = bpf_map_lookup_elem(&port_cfg, &key);
  struct hil_port_state* st = bpf_map_lookup_elem(&port_state, &key);
  if (!cfg || !st) return XDP_PASS;

  __u64 bytes = (__u64)(end - data);
  __u64 wire = (bytes < cfg->min_frame_bytes ? cfg->min_frame_bytes : bytes) + cfg->overhead_bytes;
  int pass = 1;
  if (cfg->rate_bps != 0) {
    __u64 charge = wire * 8 * HIL_XDP_NS_PER_S;
    __u64 cap = cfg->bucket_bits * HIL_XDP_NS_PER_S;
    __u64 now = bpf_ktime_get_ns(); /* before the lock: no helper call may run under it */
    bpf_spin_lock(&st->lock);
    if (st->generation != cfg->generation) {
      st->generation = cfg->generation;
      st->tokens = cap;
      st->first_ns = now;
      st->last_ns = now;
      st->full_ns = 0;
      st->overflow_units = 0;
    }
    refill(st, cfg, cap, now);
    if (st->tokens >= charge) {
      st->tokens -= charge;
    } else {
      pass = 0;
    }
    bpf_spin_unlock(&st->lock);
  }

  __u32 slot = pass ? HIL_XDP_PORT_PASSED : HIL_XDP_PORT_DROPPED;
  struct hil_port_count* c = bpf_map_lookup_elem(&port_counts, &slot);
  if (c) {
    c->frames += 1;
    c->bytes += bytes;
    c->wire_bytes += wire;
  }
  if (!pass) return XDP_DROP;
  bpf_tail_call(ctx, &port_next, 0); /* returns only when the slot is empty */
  return XDP_PASS;
}
