// Board profile: one TOML file per bench describing the DUT, the peer, the expected link and every
// threshold, tier and duration the documented checks use (docs/architecture.md "Board profile";
// docs/checks.md says which check reads each key and where its default comes from).
//
// Contract: load_profile()/parse_profile() either return a fully validated profile or throw
// profile_error listing every problem found in one pass (unknown key, wrong type, value out of
// range, missing required key), each with its dotted key and source line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hil::profile {

enum class peer_mode { sim, ssh, external };
enum class duplex_mode { full, half };
// What serves the tests on the peer (peer.server): hilperf-peer (every case), a stock iperf3 -s,
// iperf 2's iperf -s (seed 002's UDP rows and the iperf3-shaped cases it can serve), or netperf's
// netserver (NetperfSuite only).
enum class peer_server { hilperf_peer, iperf3, iperf2, netserver };

// How the simulated bench emulates the Rfc2544 cases' Ethernet port (sim.frame_port).
enum class sim_frame_port { tbf, xdp };
// How the Rfc2544 cases send the frames the DUT transmits (rfc2544.sender): below the socket
// layer (hil/frame's paths, counted by hilperf-peer: FRAME_COUNT) where the peer can count them,
// else iperf3 UDP tests; or iperf3 UDP tests always.
enum class rfc2544_sender { frame_path, iperf3 };

// How the suite reaches the DUT: a Linux board the cases run on (here, or over ssh through
// ci/board-launcher), or a microcontroller whose firmware's iperf is typed at its serial console
// while hilperf's own iPerf 2 end runs on the runner (docs/console-duts.md).
enum class dut_mode { linux_board, console };

// The near end: the interface the checks exercise and the addresses it carries.
struct dut_config {
  dut_mode mode = dut_mode::linux_board;
  std::string interface = "eth0";  // e.g. eth0; the interface whose link the checks control
  std::string ipv4;                // "a.b.c.d/len"; required
  std::string ipv6;                // "x::y/len"; empty when the bench has no IPv6
};

// Which firmware's iperf a console DUT speaks (hil/firmware's dialects).
enum class firmware_dialect { st67w6x, zperf, esp_idf };
// What ends a typed line: the dialect's own choice, or the one named.
enum class console_line_ending { dialect, lf, cr, crlf };

// [console]: the DUT's console, when dut.mode is "console".
struct console_config {
  // "/dev/ttyACM0", a pseudo-terminal, "tcp://host:port" (ser2net's tcp accepter) or
  // "rfc2217://host:port" (its telnet(rfc2217) accepter)
  std::string port;
  int baud = 115200;    // a device's, or asked of an RFC 2217 server
  bool rtscts = false;  // hardware flow control
  firmware_dialect dialect = firmware_dialect::st67w6x;
  std::string prompt;  // empty: the dialect's
  console_line_ending line_ending = console_line_ending::dialect;
  int char_delay_ms = 0;           // between typed bytes (a firmware that loses bytes sent fast)
  int prompt_timeout_seconds = 5;  // every wait for the prompt or a typed line's echo
  int end_slack_seconds = 15;      // beyond a run's -t, for its end marker
  // Typed once before the first run (joining the access point, say), each awaiting its reply (a
  // literal substring) within setup_timeout_seconds: the two lists pair up, equal in length.
  std::vector<std::string> setup_commands;
  std::vector<std::string> setup_replies;
  int setup_timeout_seconds = 30;
  std::string reset_command;  // typed when a run will not end even after its abort; empty: none
};

// [firmware_iperf]: procedure 002's Tx/Rx rows with the DUT behind its console; the run's length
// is durations.*.txrx_seconds. The minimums default to 90 % of the procedure's published table
// (UDP Tx 27.2, Rx 27.7, TCP Tx 23.6, Rx 24.5 Mbit/s).
struct firmware_iperf_config {
  int udp_rate_mbps = 50;  // what the UDP rows ask (iperf -b), whole Mbit/s
  int port = 5001;         // iPerf 2's port, at both ends
  double udp_tx_mbps = 24.5;
  double udp_rx_mbps = 24.9;
  double tcp_tx_mbps = 21.2;
  double tcp_rx_mbps = 22.0;
  // The firmware's own printed bandwidth against hilperf's count: a larger disagreement is named
  // in the case's output and record (the verdict stays hilperf's count).
  double report_tolerance_percent = 10.0;
};

// The far end (the PC in procedure 000).
struct peer_config {
  peer_mode mode = peer_mode::sim;
  std::string ipv4;           // address only, no prefix; required
  std::string ipv6;           // empty when the bench has no IPv6
  std::uint16_t port = 5201;  // the peer's control port (procedure 000: 5002)
  std::string ssh_target;     // user@host; required when mode == ssh
  // ssh mode: the ssh client and its options, split on whitespace (no quoting); the command to run
  // on the PC is appended after ssh_target.
  std::string ssh_command = "ssh -o BatchMode=yes -o ConnectTimeout=10";
  peer_server server = peer_server::hilperf_peer;  // what runs on the peer in sim/ssh modes
  // The socket buffer the UDP tests ask the peer for, as iperf3's -w does (the peer's kernel caps
  // it at net.core.rmem_max): a stock iperf3 receiver otherwise keeps its default (208 KiB on
  // Linux) and drops datagrams there when the PC stalls, which is not the DUT's port. 0: ask none.
  int udp_buffer_bytes = 4 << 20;
  std::uint16_t netserver_port = 12865;  // netserver's control port (netserver -p), NetperfSuite
  // iperf3's RSA authentication, for a peer that requires it (iperf3 -s --rsa-private-key-path
  // --authorized-users-path): the user, the peer's public key (PEM), PKCS#1 v1.5 padding for a
  // server before iperf3 3.17. The password is never in the profile: IPERF3_PASSWORD.
  std::string username;
  std::string rsa_public_key_path;
  bool use_pkcs1_padding = false;
};

// What the DUT's link must negotiate.
struct link_expectation {
  int speed_mbps = 1000;  // /sys/class/net/<if>/speed must equal this
  duplex_mode duplex = duplex_mode::full;
};

// Pass limits of the documented checks.
struct thresholds {
  double tcp_dut_transmits_mbps = 940.0;          // procedure 000: transmit bandwidth
  double tcp_dut_receives_mbps = 870.0;           // procedure 000: receive bandwidth
  int tcp_retransmits_per_interval = 200;         // "Retr does not grow significantly"
  double datagram_count_tolerance_percent = 2.0;  // DatagramCounts vs rate*t/(8*payload)
  double bidir_each_way_mbps = 800.0;             // Bidirectional: goodput each way while both send
  double parallel_total_mbps = 900.0;  // ParallelStreams: summed goodput of parallel_streams
  int parallel_streams = 4;            // ParallelStreams: -P
};

// MTU tiers for MtuReadBack, UdpZeroLoss and DatagramCounts.
struct mtu_config {
  std::vector<int> tiers{576, 1500, 3000};
  int jumbo = 9000;            // the optional jumbo tier
  bool jumbo_enabled = false;  // true only when the peer is known to accept jumbo frames
};

// One set of test durations in seconds.
struct duration_set {
  int tcp_seconds = 10;                  // TcpThroughput -t
  int udp_seconds = 5;                   // UdpZeroLoss -t
  int txrx_seconds = 10;                 // procedure 002 Tx/Rx table -t
  int interval_seconds = 1;              // -i
  int netperf_seconds = 2;               // NetperfSuite: each iteration's length (netperf -l)
  int latency_seconds = 3;               // LatencyUnderLoad: each of the idle and loaded RR runs
  int rfc2544_trial_seconds = 1;         // Rfc2544: each search trial
  int rfc2544_confirm_seconds = 2;       // Rfc2544: the confirmation trial (RFC 2544 asks 60)
  int rfc2544_back_to_back_repeats = 2;  // Rfc2544 BackToBack: bursts searched (RFC 2544 asks 50)
  int y1564_step_seconds = 2;            // Y1564: each step of the service configuration test
};

// NetperfSuite (procedure 003): netperf's six tests, run.iterations times each.
struct netperf_config {
  int request_size = 1;                   // TCP_RR/TCP_CRR/UDP_RR request bytes (netperf -r 1,1)
  int response_size = 1;                  // response bytes
  int confidence_level = 99;              // percent (netperf -I 99,5)
  double confidence_width_percent = 5.0;  // the interval's width the run aims for, % of the mean
  // Minimum averages; 0 leaves a test reported but unchecked.
  double tcp_stream_mbps = 0;
  double tcp_maerts_mbps = 0;
  double udp_stream_mbps = 0;
  double tcp_rr_per_second = 0;
  double tcp_crr_per_second = 0;
  double udp_rr_per_second = 0;
};

// LatencyUnderLoad (procedure 000 "latency, especially under high load"; flent's RRUL).
struct latency_config {
  int load_streams = 4;         // TCP streams each way saturating the link
  double loaded_p99_ms = 50.0;  // TCP_RR p99 round trip allowed while the link is saturated
};

// Which way an Rfc2544 or Y1564 case's frames go: from the DUT to the peer, or from the peer to
// the DUT (each trial an iperf3 -R test: the board's receive path).
enum class frame_direction { dut_transmits, dut_receives };

// Rfc2544 (RFC 2544 §26.1 throughput per frame size; docs/checks.md): the highest frame rate
// without loss, found by a binary search with trials of durations.*.rfc2544_trial_seconds and
// confirmed by one of rfc2544_confirm_seconds, as a share of the port's media maximum.
struct rfc2544_config {
  // Ethernet frame sizes in bytes (header, payload and FCS), RFC 2544 §9.1's; the cases add the
  // jumbo MTU's frame (mtu.jumbo + 18), skipped unless mtu.jumbo_enabled.
  std::vector<int> frame_sizes{64, 128, 256, 512, 1024, 1280, 1518};
  double resolution_percent = 1.0;     // the search stops this close to the answer (% of maximum)
  double accepted_loss_percent = 0.0;  // 0: RFC 2544's zero loss; above: a partial drop rate
  double min_percent = 95.0;           // pass: the found rate ≥ this % of the media maximum ...
  std::vector<std::pair<int, double>> min_percent_by_frame;  // ... or this frame size's own
  // The line rate the media maximum is computed from; 0: link.speed_mbps on a board, and on the
  // simulated bench sim.frame_port_mbit, the rate its port is shaped to for these cases.
  int line_mbps = 0;
  // FrameLoss (§26.3): the sweep's step down from 100 %, in % of the media maximum (at most 10).
  double loss_step_percent = 10.0;
  // BackToBack (§26.4): the longest burst tried, in seconds of frames at the media maximum
  // (RFC 2544 asks at least 2), and the pass: the repeats' average longest whole burst ≥ this % of
  // it.
  int back_to_back_seconds = 2;
  double back_to_back_min_percent = 100.0;
  // Latency (§26.2): the median round trip of echo probes of the frame size while the port
  // carries the frame size's throughput floor (min_percent) of frames.
  double latency_median_ms = 5.0;
  // Every Rfc2544 and Y1564 case runs once per direction and IP version listed (the cases named
  // frame64, frame64_dut_receives, frame64_ipv6, frame64_ipv6_dut_receives). IPv6 cases skip
  // without dut.ipv6 and peer.ipv6; a frame size too small for IPv6's header fails as such.
  std::vector<frame_direction> directions{frame_direction::dut_transmits};
  std::vector<int> ip_versions{4};
  // The frames the DUT sends: "frame_path" (AF_XDP, else an AF_PACKET TX ring, else a UDP
  // socket, each trial counted by hilperf-peer; with a stock iperf3 server, iperf3 UDP tests) or
  // "iperf3" (iperf3 UDP tests always). On the simulated bench with sim.frame_port = "tbf" the
  // port is a qdisc the frame paths would bypass: iperf3 UDP tests there.
  rfc2544_sender sender = rfc2544_sender::frame_path;

  // The minimum % of the media maximum for frame_bytes.
  [[nodiscard]] double min_percent_for(int frame_bytes) const;
};

// Y1564 (ITU-T Y.1564 service configuration test; docs/checks.md): a service of each frame size
// offered in steps of its committed information rate (CIR), each step a stream of that share with
// ICMP echo probes inside it, held against the service acceptance criteria.
struct y1564_config {
  std::vector<int> frame_sizes{512, 1518};
  std::vector<int> steps_percent{25, 50, 75, 100};  // % of the CIR, increasing, at most 100
  // The CIR in Mbit/s of whole Ethernet frames (destination address to FCS); 0: cir_percent of
  // the frames the line rate (rfc2544.line_mbps's rule) carries at the frame size.
  double cir_mbps = 0;
  double cir_percent = 90.0;
  double flr_percent = 0.0;  // each step's frame loss ratio at most this
  double ftd_ms = 5.0;       // each step's frame transfer delay (median round trip) at most this
  double fdv_ms = 5.0;       // each step's delay variation (p99 less minimum) at most this
};

// The simulated bench (peer mode sim): namespaces, veth, shaping.
struct sim_config {
  std::string bench = "hp0";           // namespace names are hilperf-<bench>-dut / -peer
  std::string peer_interface = "pc0";  // the veth end in the peer namespace
  int shape_mbit = 1000;               // tbf rate on both ends; 0 leaves the link unshaped
  int peer_mtu = 9000;                 // the peer end's MTU (1500 stands in for a PC without jumbo)
  // During an Rfc2544 case both ends are shaped to this rate counting Ethernet's per-frame cost
  // (tbf overhead: FCS, preamble, gap), so the port has a media maximum as a real one has;
  // the bench's own shaping is back afterwards. 0: shape_mbit.
  int frame_port_mbit = 10;
  // How that port is emulated: tbf on each end's sending interface (a queue, the sender paying
  // the port's cost), or a token bucket in XDP on each end's receiving interface (no queue, the
  // receiving core paying: docs/xdp.md), which lets the search run at 1 Gbit/s.
  sim_frame_port frame_port = sim_frame_port::tbf;
};

// Nightly history (hil.history.regression): where runs are kept and what counts as a regression.
struct history_config {
  std::string dir;  // empty = no history; relative paths are from the profile's dir
  // The store instead of dir (docs/history.md): "sqlite:FILE", "postgresql://user@host/db".
  // Never a password: PostgreSQL's comes from PGPASSWORD or a pgpass file.
  std::string url;
  std::string spool;  // where a run whose upload failed waits; empty: the user's state directory
  double tolerance_percent = 5.0;  // worse than the baseline median by more than this fails
  int baseline_runs = 5;           // how many earlier runs make the baseline
};

struct profile {
  std::string source;  // the file (or name) the profile was read from
  dut_config dut;
  peer_config peer;
  link_expectation link;
  thresholds limits;
  mtu_config mtu;
  duration_set quick{10, 5, 10, 1, 2, 3, 1, 2, 2};
  duration_set nightly{600, 5, 10, 1, 10, 30, 10, 60, 50, 10};
  std::string duration_set_name = "quick";  // which of quick/nightly the run uses
  int iterations = 5;  // NetperfSuite iterations per test (procedure 003 runs 10 to 20)
  // The quiet bench (docs/quiet-bench.md): a case whose verdict fails while the CPU pressure over
  // its window exceeded quiet_cpu_pressure_percent, or other processes used more than
  // quiet_other_cpu_percent of one core, measures again, up to max_attempts in all.
  double quiet_cpu_pressure_percent = 20.0;
  double quiet_other_cpu_percent = 20.0;
  int max_attempts = 3;
  netperf_config netperf;
  latency_config latency;
  rfc2544_config rfc2544;
  y1564_config y1564;
  history_config history;
  sim_config sim;
  console_config console;  // dut.mode console
  firmware_iperf_config firmware_iperf;

  // The duration set selected by duration_set_name.
  [[nodiscard]] const duration_set& durations() const {
    return duration_set_name == "nightly" ? nightly : quick;
  }
  // The DUT network namespace for the simulated bench, empty for a real board.
  [[nodiscard]] std::string dut_netns() const;
  // The peer network namespace for the simulated bench, empty for a real board.
  [[nodiscard]] std::string peer_netns() const;
  // The line rate in Mbit/s the Rfc2544 media maximum is of (rfc2544.line_mbps's rule).
  [[nodiscard]] int rfc2544_line_mbps() const;
};

// One validation finding.
struct problem {
  std::string key;      // dotted key, e.g. "thresholds.tcp_dut_transmits_mbps"
  int line = 0;         // 1-based source line, 0 when the key is missing
  std::string message;  // what is wrong and what is allowed
};

// Thrown when a profile cannot be used; what() lists every problem, one per line.
class profile_error : public std::runtime_error {
 public:
  // kind names what source is in what(): "profile", or "farm" for a farm file.
  profile_error(std::string source, std::vector<problem> problems,
                std::string_view kind = "profile");
  [[nodiscard]] const std::vector<problem>& problems() const noexcept { return problems_; }

 private:
  std::vector<problem> problems_;  // every finding of the validation pass, in source order
};

// [a-z0-9]{1,8}: a valid [sim] bench name (the namespaces are hilperf-<bench>-dut and -peer).
bool is_bench_name(std::string_view name);

// Parses and validates TOML text; source names it in messages.
profile parse_profile(std::string_view toml_text, std::string_view source);

// Reads and validates a profile file; a missing or unreadable file is a profile_error too.
profile load_profile(const std::filesystem::path& file);

// The profile to use: the flag if given, else $HILPERF_PROFILE if set and non-empty, else fallback.
std::filesystem::path select_profile(const std::optional<std::string>& flag,
                                     const std::filesystem::path& fallback);

// The effective profile (defaults filled in) as TOML, echoed at the start of every run.
std::string echo(const profile& p);

}  // namespace hil::profile
