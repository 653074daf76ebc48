// Hand-built results for the iperf3 -J writer and reader tests (iperf3_json_write_test.cpp,
// iperf3_json_read_test.cpp): the same tests stock iperf3 3.12 ran for the captures in
// hil/tests/data/iperf3-3.12-*.json, as hil::measure::test_result, and the captures themselves.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "hil/report/iperf3_json.hpp"
#include "hil/tests/test_data.hpp"

namespace hil::report::test {

using hil::measure::protocol;
using hil::measure::stream_interval;
using hil::measure::stream_result;
using hil::measure::stream_totals;
using hil::measure::test_result;

inline constexpr std::string_view k_version = "0.1.0";
inline constexpr std::string_view k_system = "Linux board 6.1.0 #1 SMP PREEMPT aarch64";

// The capture hil/tests/data/<name>, whole.
inline std::string fixture(std::string_view name) {
  return hil::test::test_data(std::string(name));
}

// text with every occurrence of from replaced by to.
inline std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Our writer's document for r, with this fixed version and system.
inline nlohmann::json ours(const test_result& r) { return to_iperf3_json(r, k_version, k_system); }

// --- hand-built results ------------------------------------------------------------------------

inline test_result base_result(protocol proto) {
  test_result r;
  r.spec.proto = proto;
  r.spec.duration = std::chrono::seconds{2};
  r.remote_host = "192.168.1.195";
  r.remote_port = 5002;
  r.cookie = std::string("i5hdv6sbzpqa375a6ts3yvfqp6ooqajubbl4") + '\0';  // as on the wire
  r.started = std::chrono::system_clock::time_point{std::chrono::seconds{1796020870}};
  r.tcp_mss = 1448;
  r.sndbuf_actual = 16384;
  r.rcvbuf_actual = 131072;
  r.local_cpu = {94.5, 1.5, 93.0};
  r.remote_cpu = {35.25, 1.25, 34.0};
  return r;
}

inline void connect(test_result& r, int id, int socket) {
  r.connected.push_back({id, socket, "192.168.1.10", 40560 + id, "192.168.1.195", 5002});
}

inline stream_interval sample(int id, bool sender, double start_s, std::uint64_t bytes) {
  stream_interval s;
  s.id = id;
  s.sender = sender;
  s.start_s = start_s;
  s.end_s = start_s + 1.0;
  s.bytes = bytes;
  return s;
}

inline stream_interval tcp_sent(int id, double start_s, std::uint64_t bytes,
                                std::int64_t retransmits) {
  stream_interval s = sample(id, true, start_s, bytes);
  s.retransmits = retransmits;
  s.snd_cwnd_bytes = 1047728;
  s.snd_wnd_bytes = 3145728;
  s.rtt_us = 83;
  s.rttvar_us = 33;
  s.pmtu = 1500;
  return s;
}

inline stream_totals totals(std::uint64_t bytes, double seconds, std::int64_t retransmits = -1) {
  stream_totals t;
  t.bytes = bytes;
  t.seconds = seconds;
  t.retransmits = retransmits;
  return t;
}

// iperf3 -c … -t 2: one TCP stream the client sends.
inline test_result tcp_client() {
  test_result r = base_result(protocol::tcp);
  connect(r, 1, 5);
  r.intervals = {{{tcp_sent(1, 0.0, 117625000, 49)}}, {{tcp_sent(1, 1.0, 117375000, 109)}}};
  stream_result s{1, true, totals(235000000, 2.0, 158), totals(234881024, 2.0004)};
  s.sender.max_snd_cwnd_bytes = 1047728;
  s.sender.max_snd_wnd_bytes = 3145728;
  s.sender.max_rtt_us = 104;
  s.sender.min_rtt_us = 83;
  s.sender.mean_rtt_us = 93;
  r.streams = {s};
  r.sender_congestion = "cubic";
  r.receiver_congestion = "bbr";
  return r;
}

// iperf3 -c … -u -b 100M -l 548 -t 2: the procedure's MTU 576 tier. 6 datagrams were lost in gaps
// and 4 more after the last one received (never counted), so the highest sequence seen is 45616.
inline test_result udp_client() {
  test_result r = base_result(protocol::udp);
  r.spec.bitrate_bps = 100'000'000;
  r.spec.block_len = 548;
  connect(r, 1, 5);
  stream_interval first = sample(1, true, 0.0, 22806ULL * 548);
  first.packets = 22806;
  stream_interval second = sample(1, true, 1.0, 22814ULL * 548);
  second.packets = 22814;
  r.intervals = {{{first}}, {{second}}};
  stream_result s{1, true, totals(45620ULL * 548, 2.0), totals(45610ULL * 548, 2.0003)};
  s.sender.packets = 45620;
  s.receiver.packets = 45616;
  s.receiver.errors = 6;
  s.receiver.jitter_s = 0.000021;
  s.receiver.out_of_order = 1;
  r.streams = {s};
  return r;
}

// iperf3 -c … -R -t 2: the server sends; its TCP_INFO extremes are not exchanged.
inline test_result reverse_client() {
  test_result r = base_result(protocol::tcp);
  r.spec.reverse = true;
  connect(r, 1, 5);
  r.intervals = {{{sample(1, false, 0.0, 1681915798)}}, {{sample(1, false, 1.0, 1671036928)}}};
  r.streams = {{1, false, totals(3354132480, 2.002503, 35), totals(3352952726, 2.000036)}};
  r.sender_congestion = "bbr";
  r.receiver_congestion = "bbr";
  return r;
}

// iperf3 -c … --bidir -P 2 -t 2: ids 1 and 3 go client -> server, 4 and 5 come back. The end
// results are deliberately out of order; the writer must list 1, 3, then 4, 5.
inline test_result bidir_client() {
  test_result r = base_result(protocol::tcp);
  r.spec.bidirectional = true;
  r.spec.parallel = 2;
  connect(r, 1, 5);
  connect(r, 3, 7);
  connect(r, 4, 9);
  connect(r, 5, 12);
  for (const double start : {0.0, 1.0}) {
    r.intervals.push_back(
        {{tcp_sent(1, start, 95630131, 0), tcp_sent(3, start, 95630131, 0),
          sample(4, false, start, 903872512), sample(5, false, start, 903872512)}});
  }
  r.streams = {{4, false, totals(1847500000, 2.0, 12), totals(1845000000, 2.0)},
               {1, true, totals(192750000, 2.0, 0), totals(187000000, 2.0)},
               {5, false, totals(1847500000, 2.0, 4), totals(1845000000, 2.0)},
               {3, true, totals(192750000, 2.0, 0), totals(187000000, 2.0)}};
  r.sender_congestion = "cubic";
  r.receiver_congestion = "cubic";
  return r;
}

// The same test seen from the server: every stream's direction flips for the local end.
inline test_result as_server(test_result r) {
  r.is_client = false;
  r.remote_port = 40560;
  for (auto& c : r.connected) std::swap(c.local_port, c.remote_port);
  for (auto& sample_ : r.intervals) {
    for (auto& s : sample_.streams) s.sender = !s.sender;
  }
  for (auto& s : r.streams) s.local_sends = !s.local_sends;
  std::swap(r.local_cpu, r.remote_cpu);
  return r;
}

}  // namespace hil::report::test
