// Pacing smoothness as the wire sees it: an AF_PACKET socket on the receiving interface records
// the kernel arrival time of every UDP datagram of one size to one port, so stock iperf3's sender
// and ours are judged by the same observer. Benchmark-only (tools/hilperf-bench).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace hil::bench_tool {

class gap_probe {
 public:
  // Starts recording in network namespace netns on interface ifname: IPv4 UDP datagrams to
  // dst_port whose payload is payload_len bytes.
  gap_probe(std::string netns, std::string ifname, std::uint16_t dst_port, std::size_t payload_len);
  ~gap_probe();
  gap_probe(const gap_probe&) = delete;
  gap_probe& operator=(const gap_probe&) = delete;

  // Stops recording and returns the gaps between consecutive datagrams.
  std::vector<std::chrono::nanoseconds> stop();

 private:
  void run();

  std::string netns_;
  std::string ifname_;
  std::uint16_t port_;
  std::size_t payload_len_;
  std::atomic<bool> stop_{false};
  std::vector<std::int64_t> arrivals_ns_;  // written by the probe thread until stop()
  std::string error_;                      // set by the probe thread when it could not record
  std::thread thread_;
};

// The p-th percentile (0..100) of |gap - ideal| in microseconds; 0 for no gaps.
double deviation_percentile_us(std::vector<std::chrono::nanoseconds> gaps,
                               std::chrono::nanoseconds ideal, double p);

}  // namespace hil::bench_tool
