// What a UDP receiver learns from iperf3 datagram headers: loss, reordering, the highest sequence
// and RFC 3550 jitter, computed the way a stock iperf3 receiver does (iperf_udp_recv in
// src/iperf_udp.c, identical in 3.12 and HEAD; see docs/iperf3-protocol.md §8), so our numbers
// and a stock iperf3's agree on the same packets. Pure: the caller parses the header and reads the
// clock; nothing here touches a socket.
//
//   datagram ──► unwrap (32-bit counters only) ──► sequence accounting ──► jitter filter
//                 seq = 2^32·epoch + wire          highest / lost / ooo     J += (|ΔT| − J)/16
//
// One deliberate difference: with 32-bit header counters iperf3 compares the raw 32-bit value,
// so after 2^32 datagrams every sequence looks like a late packet (out_of_order grows, loss is
// "recovered" one by one, the highest sequence sticks at 4294967295). We unwrap instead: a 32-bit
// sequence continues as 2^32 + n. Below 2^31 the unwrap is the identity, so short tests match
// iperf3 bit for bit.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace hil::measure {

// The receiver's counters at one instant; two of them make an interval (interval_delta).
struct udp_snapshot {
  std::uint64_t datagrams = 0;    // datagrams received
  std::uint64_t bytes = 0;        // bytes received (as passed to on_datagram)
  std::uint64_t highest_seq = 0;  // highest (unwrapped) sequence seen; iperf3's packet_count
  std::int64_t lost = 0;          // sequence gaps minus late arrivals; iperf3's cnt_error
  std::int64_t out_of_order = 0;  // datagrams at or below highest_seq; iperf3's outoforder_packets
  double jitter_s = 0;            // RFC 3550 interarrival jitter, seconds
};

// The change from begin to end, as iperf3 reports an interval: counts subtract (highest_seq
// becomes the advance of the highest sequence, which is iperf3's interval "packets"; lost can be
// negative when a datagram counted lost in an earlier interval arrives late), jitter is end's.
// Precondition: begin was taken before end on the same stream.
[[nodiscard]] udp_snapshot interval_delta(const udp_snapshot& begin, const udp_snapshot& end);

// iperf3's receiver statistics for one UDP stream. Not thread-safe: the caller serialises
// on_datagram and the accessors (the engine samples under its own lock).
class udp_receiver_stats {
 public:
  // Accounts one datagram. wire_seq is the header's sequence (only its low 32 bits are used
  // unless counters_64bit); sent is the header's sec+usec as a duration since the sender's
  // arbitrary epoch; arrived is the local monotonic arrival time; payload_bytes is what the read
  // returned, header included, which is what iperf3 counts.
  void on_datagram(std::uint64_t wire_seq, std::chrono::nanoseconds sent,
                   std::chrono::nanoseconds arrived, std::size_t payload_bytes,
                   bool counters_64bit);

  // Zeroes jitter and lets the next datagram re-initialise the previous transit, as iperf3's
  // iperf_reset_stats does when the -O omit period ends; counts are kept (use snapshots).
  // The same as `count` on_datagram calls for wire sequences first_wire_seq, first_wire_seq + 1, …
  // all stamped `sent` and arriving at `arrived` (one GSO send delivered as one GRO message), in
  // O(1) after the first datagram.
  void on_run(std::uint64_t first_wire_seq, std::uint64_t count, std::chrono::nanoseconds sent,
              std::chrono::nanoseconds arrived, std::size_t payload_bytes_each,
              bool counters_64bit);

  void restart_jitter();

  // Highest sequence seen (unwrapped); compare it with the sender's count to see tail loss.
  [[nodiscard]] std::uint64_t highest_seq() const { return highest_seq_; }
  // Datagrams missing from the sequence below highest_seq(), as iperf3 counts them (tail loss
  // is not included; duplicates and late arrivals decrement it).
  [[nodiscard]] std::int64_t lost() const { return lost_; }
  // Datagrams that arrived at or below the highest sequence already seen (duplicates included).
  [[nodiscard]] std::int64_t out_of_order() const { return out_of_order_; }
  // RFC 3550 interarrival jitter in seconds, filtered with gain 1/16.
  [[nodiscard]] double jitter_s() const { return jitter_s_; }
  // Datagrams received.
  [[nodiscard]] std::uint64_t datagrams() const { return datagrams_; }
  // Bytes received, summed from on_datagram's payload_bytes.
  [[nodiscard]] std::uint64_t bytes() const { return bytes_; }
  // All counters at once, for interval_delta.
  [[nodiscard]] udp_snapshot snapshot() const;

 private:
  [[nodiscard]] std::uint64_t unwrap(std::uint64_t wire_seq, bool counters_64bit) const;
  void count_sequence(std::uint64_t seq);
  void update_jitter(std::chrono::nanoseconds sent, std::chrono::nanoseconds arrived);

  std::uint64_t datagrams_ = 0;
  std::uint64_t bytes_ = 0;
  std::uint64_t highest_seq_ = 0;
  std::int64_t lost_ = 0;
  std::int64_t out_of_order_ = 0;
  double jitter_s_ = 0;
  bool have_transit_ = false;  // false until a datagram has set prev_transit_
  std::chrono::nanoseconds prev_transit_{0};
};

}  // namespace hil::measure
