/* The XDP frame counter: every frame of a declared flow (a UDP destination port) is counted on the
 * receiving CPU (frames and bytes, per-CPU, summed by user space as exact integers) and then
 * dropped or passed as user space asked; every other frame is counted in the "other" slot and
 * passed, so the link's own traffic (ARP, neighbour discovery, control connections) goes on.
 * Built by clang -target bpf (ci/cmake/bpf.cmake); loaded and attached by hil/xdp/frame_counter. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

/* after the kernel types libbpf's headers use */
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "hil/xdp/bpf/udp_port.h"
#include "hil/xdp/bpf/xdp_abi.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* UDP destination port (host order) -> slot of flow_counts, written by user space. */
struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, HIL_XDP_MAX_FLOWS);
  __type(key, __u16);
  __type(value, __u32);
} flow_slots SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, HIL_XDP_MAX_FLOWS + 1);
  __type(key, __u32);
  __type(value, struct hil_flow_count);
} flow_counts SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct hil_counter_config);
} counter_cfg SEC(".maps");

SEC("xdp")
int hil_count(struct xdp_md* ctx) {
  void* data = (void*)(long)ctx->data;
  void* end = (void*)(long)ctx->data_end;
  __u32 key = 0;
  struct hil_counter_config* cfg = bpf_map_lookup_elem(&counter_cfg, &key);
  if (!cfg) return XDP_PASS;

  __u32 slot = HIL_XDP_OTHER_SLOT;
  int action = XDP_PASS;
  int port = hil_udp_dst_port(data, end);
  if (port >= 0) {
    __u16 p = (__u16)port;
    __u32* s = bpf_map_lookup_elem(&flow_slots, &p);
    if (s && *s < HIL_XDP_MAX_FLOWS) {
      slot = *s;
      action = cfg->matched_action == XDP_DROP ? XDP_DROP : XDP_PASS;
    }
  }
  struct hil_flow_count* c = bpf_map_lookup_elem(&flow_counts, &slot);
  if (c) {
    c->frames += 1;
    c->bytes += (__u64)(end - data);
  }
  return action;
}
