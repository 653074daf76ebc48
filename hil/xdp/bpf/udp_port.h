/* What the XDP programs share on the BPF side: the parsing of a frame down to its UDP destination
 * port. BPF C only (clang -target bpf). */
#ifndef HIL_XDP_BPF_UDP_PORT_H
#define HIL_XDP_BPF_UDP_PORT_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

/* after the kernel types libbpf's headers use */
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct hil_vlan_hdr {
  __be16 tci;
  __be16 proto;
};

/* The UDP destination port of the frame in [data, end) in host order, or -1 when it is no UDP
 * datagram's first fragment over IPv4 or IPv6 (no extension headers), with at most one VLAN tag. */
static __always_inline int hil_udp_dst_port(void* data, void* end) {
  struct ethhdr* eth = data;
  if ((void*)(eth + 1) > end) return -1;
  __be16 proto = eth->h_proto;
  void* l3 = eth + 1;
  if (proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD)) {
    struct hil_vlan_hdr* vlan = l3;
    if ((void*)(vlan + 1) > end) return -1;
    proto = vlan->proto;
    l3 = vlan + 1;
  }
  struct udphdr* udp;
  if (proto == bpf_htons(ETH_P_IP)) {
    struct iphdr* ip = l3;
    if ((void*)(ip + 1) > end) return -1;
    /* a later fragment carries no UDP header */
    if (ip->protocol != IPPROTO_UDP || (ip->frag_off & bpf_htons(0x1fff)) != 0) return -1;
    __u32 header_bytes = ip->ihl * 4;
    if (header_bytes < sizeof(*ip)) return -1;
    udp = (void*)((char*)l3 + header_bytes);
  } else if (proto == bpf_htons(ETH_P_IPV6)) {
    struct ipv6hdr* ip6 = l3;
    if ((void*)(ip6 + 1) > end) return -1;
    if (ip6->nexthdr != IPPROTO_UDP) return -1;
    udp = (void*)(ip6 + 1);
  } else {
    return -1;
  }
  if ((void*)(udp + 1) > end) return -1;
  return bpf_ntohs(udp->dest);
}

#endif
