/* The maps the XDP programs share with user space (hil/xdp): one definition, read by the BPF C of
 * hil/xdp/bpf/ (clang -target bpf) and by the C++ of hil/xdp. Plain C, fixed-width kernel types,
 * no padding the two compilers could place differently. */
#ifndef HIL_XDP_BPF_XDP_ABI_H
#define HIL_XDP_BPF_XDP_ABI_H

#include <linux/bpf.h>
#include <linux/types.h>

/* The frame counter: a flow is a UDP destination port (IPv4 or IPv6, one optional VLAN tag). */
#define HIL_XDP_MAX_FLOWS 64
/* The slot of hil_flow_counts that counts every frame matching no flow (ARP, other ports, ...). */
#define HIL_XDP_OTHER_SLOT HIL_XDP_MAX_FLOWS

/* flow_counts value, one per CPU: frames and their bytes as XDP sees them (without the FCS). */
struct hil_flow_count {
  __u64 frames;
  __u64 bytes;
};

/* counter_cfg value (key 0): what the counter returns for a frame of a declared flow. Frames of no
 * declared flow always pass. */
struct hil_counter_config {
  __u32 matched_action; /* XDP_DROP or XDP_PASS */
  __u32 reserved;
};

/* The port emulation: a token bucket charged per frame with its wire size. Tokens are bits scaled
 * by 10^9 (bit-nanoseconds per second), so that a refill of rate_bps per elapsed nanosecond and a
 * charge of wire_bits * 10^9 per frame are both exact integers. */
#define HIL_XDP_NS_PER_S 1000000000ULL

/* port_cfg value (key 0), written by user space. A new generation resets the bucket (full) and
 * the window; rate_bps 0 passes every frame. */
struct hil_port_config {
  __u64 rate_bps;       /* the line rate the port carries, bits/s on the wire */
  __u64 bucket_bits;    /* the bucket's capacity in wire bits */
  __u64 generation;     /* bumped by every configuration */
  __u32 overhead_bytes; /* charged beyond the frame XDP sees: FCS 4 + preamble 7 + SFD 1 + gap 12 */
  __u32 min_frame_bytes; /* a shorter frame is padded to this on the wire (60: 64 with the FCS) */
};

/* port_state value (key 0): the bucket, under its lock. The identity that holds at every instant
 * after a reset at first_ns (the tests check it):
 *   bucket_bits*10^9 + rate_bps*(last_ns - first_ns)
 *     = tokens + passed wire bits*10^9 + rate_bps*full_ns + overflow_units
 */
struct hil_port_state {
  struct bpf_spin_lock lock;
  __u32 reserved;
  __u64 generation;     /* the configuration this state belongs to */
  __u64 tokens;         /* bits * 10^9 in the bucket after the last refill */
  __u64 first_ns;       /* bpf_ktime_get_ns() of the first frame after the reset */
  __u64 last_ns;        /* the last refill (the latest frame's arrival) */
  __u64 full_ns;        /* nanoseconds the bucket spent full: refill thrown away */
  __u64 overflow_units; /* refill thrown away beyond full_ns (less than rate_bps per filling) */
};

/* port_counts value, one per CPU: index 0 passed, 1 dropped. */
struct hil_port_count {
  __u64 frames;
  __u64 bytes;      /* as XDP sees them (without the FCS) */
  __u64 wire_bytes; /* charged: max(bytes, min_frame_bytes) + overhead_bytes */
};
#define HIL_XDP_PORT_PASSED 0
#define HIL_XDP_PORT_DROPPED 1

#endif
