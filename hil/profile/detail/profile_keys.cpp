// The profile key table: every key of a board profile, declared once (detail/key_table.hpp says
// what is made of it: the loading and its messages, the echo, docs/profile.md's reference).
//
// Adding a key is one line here (and its field in profile.hpp): after it, regenerate
// docs/profile.md's table with `hilperf-testbed profile-keys --write docs/profile.md`.
// Checks that span several keys (required keys aside) are in detail/profile_checks.cpp.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "hil/profile/detail/key_table.hpp"
#include "hil/profile/detail/names.hpp"

namespace hil::profile::detail {
namespace {

namespace r = rule;

// Each list in its enum's order (the reader maps a name's index to the enum value).
constexpr std::array<std::string_view, 3> peer_modes{"sim", "ssh", "external"};
constexpr std::array<std::string_view, 4> peer_servers{"hilperf-peer", "iperf3", "iperf2",
                                                       "netserver"};
constexpr std::array<std::string_view, 2> duplex_modes{"full", "half"};
constexpr std::array<std::string_view, 2> dut_modes{"linux", "console"};
constexpr std::array<std::string_view, 3> dialects{"st67w6x", "zperf", "esp_idf"};
constexpr std::array<std::string_view, 4> line_endings{"dialect", "lf", "cr", "crlf"};
constexpr std::array<std::string_view, 2> frame_directions{"dut_transmits", "dut_receives"};
constexpr std::array<std::string_view, 2> duration_set_names{"quick", "nightly"};
constexpr std::array<std::string_view, 2> frame_ports{"tbf", "xdp"};
constexpr std::array<std::string_view, 2> rfc2544_senders{"frame_path", "iperf3"};

constexpr int min_mtu = 68;  // RFC 791: the smallest MTU every IPv4 host must accept
constexpr int max_mtu = 65535;
// Ethernet frames: 64 bytes at least, at most the largest MTU's frame (+ 14 header + 4 FCS).
constexpr int min_frame = 64;
constexpr int max_frame = max_mtu + 18;
constexpr std::int64_t max_seconds = 86400;    // one day
constexpr std::int64_t max_message = 1 << 20;  // the hilperf extension's largest request/response
constexpr std::int64_t max_rate_mbit = 100000;

// peer.ssh_target may be empty (unset); detail/profile_checks.cpp requires it in ssh mode.
bool is_ssh_target_or_unset(std::string_view target) {
  return target.empty() || is_ssh_target(target);
}

// Addresses are only read here; detail/profile_checks.cpp validates them once peer.mode is known.
constexpr std::array dut_keys{
    key<&dut_config::mode>("mode", r::one_of(dut_modes), "",
                           "a Linux board the cases run on, or a firmware's iperf typed at the "
                           "DUT's console ([console])"),
    key<&dut_config::interface>("interface", r::name(is_interface_name, interface_rule), "",
                                "the interface whose link the checks control"),
    required(key<&dut_config::ipv4>("ipv4", r::text("IPv4 address with prefix length"), "",
                                    "the DUT's own address, e.g. 192.168.1.10/24"),
             "\"192.168.1.10/24\""),
    key<&dut_config::ipv6>("ipv6", r::text("IPv6 address with prefix length, or empty"), "",
                           "the DUT's IPv6 address; empty when the bench has no IPv6"),
};

// [console] is validated in every mode (a typo is a typo), though only console mode uses it.
constexpr std::array console_keys{
    key<&console_config::port>("port", r::name(is_console_port, console_port_rule), "",
                               "console mode: the serial device, a pty, or a ser2net TCP port, "
                               "raw or RFC 2217 (required there)"),
    key<&console_config::baud>("baud", r::integer(50, 4000000), "baud",
                               "the serial line's rate (8N1), asked of an RFC 2217 server; a "
                               "tcp:// console ignores it"),
    key<&console_config::rtscts>("rtscts", r::boolean(), "",
                                 "RTS/CTS hardware flow control (a device's or an RFC 2217 "
                                 "server's)"),
    key<&console_config::dialect>("dialect", r::one_of(dialects), "",
                                  "the firmware's iperf: commands, units, end markers, reports"),
    key<&console_config::prompt>("prompt", r::text("a literal, or empty"), "",
                                 "the shell's prompt; empty: the dialect's"),
    key<&console_config::line_ending>("line_ending", r::one_of(line_endings), "",
                                      "what ends a typed line; dialect: the dialect's own"),
    key<&console_config::char_delay_ms>("char_delay_ms", r::integer(0, 1000), "ms",
                                        "pause between typed bytes, for a firmware that loses "
                                        "bytes sent back to back"),
    key<&console_config::prompt_timeout_seconds>(
        "prompt_timeout_seconds", r::integer(1, 600), "s",
        "every wait for the prompt or for a typed line's echo"),
    key<&console_config::end_slack_seconds>("end_slack_seconds", r::integer(1, 3600), "s",
                                            "beyond a run's length, the wait for its end marker"),
    key<&console_config::setup_commands>("setup_commands", r::texts("console lines"), "",
                                         "typed once before the first run (e.g. joining the AP)"),
    key<&console_config::setup_replies>(
        "setup_replies", r::texts("literal replies"), "",
        "what each set-up command must print (a substring), paired with setup_commands"),
    key<&console_config::setup_timeout_seconds>("setup_timeout_seconds", r::integer(1, 600), "s",
                                                "each set-up command's wait for its reply"),
    key<&console_config::reset_command>("reset_command", r::text("a console line, or empty"), "",
                                        "typed when a run does not end even after its abort"),
};

constexpr std::array firmware_iperf_keys{
    key<&firmware_iperf_config::udp_rate_mbps>("udp_rate_mbps", r::integer(1, 10000), "Mbit/s",
                                               "the UDP rows' asked rate (iperf -b), whole Mbit/s"),
    key<&firmware_iperf_config::port>("port", r::integer(1, 65535), "",
                                      "iPerf 2's port at both ends"),
    key<&firmware_iperf_config::udp_tx_mbps>("udp_tx_mbps", r::positive(), "Mbit/s",
                                             "UDP Tx (the DUT sends): minimum received rate"),
    key<&firmware_iperf_config::udp_rx_mbps>("udp_rx_mbps", r::positive(), "Mbit/s",
                                             "UDP Rx (the DUT receives): minimum received rate"),
    key<&firmware_iperf_config::tcp_tx_mbps>("tcp_tx_mbps", r::positive(), "Mbit/s",
                                             "TCP Tx: minimum goodput"),
    key<&firmware_iperf_config::tcp_rx_mbps>("tcp_rx_mbps", r::positive(), "Mbit/s",
                                             "TCP Rx: minimum goodput"),
    key<&firmware_iperf_config::report_tolerance_percent>(
        "report_tolerance_percent", r::positive(100.0), "%",
        "the firmware's printed rate against hilperf's count: beyond this it is named"),
};

constexpr std::array peer_keys{
    required(key<&peer_config::mode>("mode", r::one_of(peer_modes), "",
                                     "simulated bench, a PC started over ssh, or a PC whose "
                                     "server is already running"),
             "\"sim\", \"ssh\" or \"external\""),
    required(key<&peer_config::ipv4>("ipv4", r::text("IPv4 address, no prefix length"), "",
                                     "the peer's (the PC's) address"),
             "\"192.168.1.195\""),
    key<&peer_config::ipv6>("ipv6", r::text("IPv6 address, no prefix length, or empty"), "",
                            "the peer's IPv6 address; empty when the bench has no IPv6"),
    key<&peer_config::port>("port", r::integer(1, 65535), "",
                            "the peer's control port (procedure 000: 5002)"),
    key<&peer_config::ssh_target>(
        "ssh_target", r::name(is_ssh_target_or_unset, ssh_target_rule), "",
        "ssh mode: the user@host the peer's server is started on (required there)"),
    key<&peer_config::ssh_command>(
        "ssh_command", r::text("command and options, split on whitespace"), "",
        "ssh mode: the ssh client and its options; the remote command follows ssh_target"),
    key<&peer_config::server>("server", r::one_of(peer_servers), "",
                              "what serves the tests on the peer in sim and ssh modes"),
    key<&peer_config::udp_buffer_bytes>(
        "udp_buffer_bytes", r::integer(0, 512 << 20), "bytes",
        "socket buffer the UDP tests ask of the peer, as iperf3 -w (capped by its "
        "net.core.rmem_max); 0: ask none"),
    key<&peer_config::netserver_port>("netserver_port", r::integer(1, 65535), "",
                                      "netserver's control port (netserver -p), NetperfSuite"),
    key<&peer_config::username>("username", r::text(), "",
                                "iperf3's RSA authentication: the user (the password: "
                                "$IPERF3_PASSWORD); goes with rsa_public_key_path"),
    key<&peer_config::rsa_public_key_path>("rsa_public_key_path", r::text("a PEM file"), "",
                                           "iperf3's RSA authentication: the peer's public key"),
    key<&peer_config::use_pkcs1_padding>(
        "use_pkcs1_padding", r::boolean(), "",
        "iperf3's RSA authentication: PKCS#1 v1.5 padding, for a server before iperf3 3.17"),
};

constexpr std::array link_keys{
    key<&link_expectation::speed_mbps>("speed_mbps", r::integer(10, 400000), "Mbit/s",
                                       "the speed the DUT's link must negotiate"),
    key<&link_expectation::duplex>("duplex", r::one_of(duplex_modes), "",
                                   "the duplex the DUT's link must negotiate"),
};

constexpr std::array threshold_keys{
    key<&thresholds::tcp_dut_transmits_mbps>("tcp_dut_transmits_mbps", r::positive(), "Mbit/s",
                                             "TcpThroughput: least goodput the DUT transmits"),
    key<&thresholds::tcp_dut_receives_mbps>("tcp_dut_receives_mbps", r::positive(), "Mbit/s",
                                            "TcpThroughput: least goodput the DUT receives"),
    key<&thresholds::tcp_retransmits_per_interval>(
        "tcp_retransmits_per_interval", r::integer(1, 1000000), "per interval",
        "TcpRetransmits: most retransmits in one interval (\"Retr does not grow\")"),
    key<&thresholds::datagram_count_tolerance_percent>(
        "datagram_count_tolerance_percent", r::positive(50.0), "%",
        "DatagramCounts: allowed difference from rate × time / (8 × payload)"),
    key<&thresholds::bidir_each_way_mbps>("bidir_each_way_mbps", r::positive(), "Mbit/s",
                                          "Bidirectional: least goodput each way while both send"),
    key<&thresholds::parallel_total_mbps>(
        "parallel_total_mbps", r::positive(), "Mbit/s",
        "ParallelStreams: least summed goodput of parallel_streams streams"),
    key<&thresholds::parallel_streams>("parallel_streams", r::integer(2, 128), "streams",
                                       "ParallelStreams: the streams run at once (-P)"),
};

constexpr std::array mtu_keys{
    key<&mtu_config::tiers>("tiers",
                            r::increasing(min_mtu, max_mtu, "tiers",
                                          "must list at least one MTU, e.g. [576, 1500, 3000]"),
                            "bytes", "the MTUs MtuReadBack, UdpZeroLoss and DatagramCounts run at"),
    key<&mtu_config::jumbo>("jumbo", r::integer(min_mtu, max_mtu), "bytes",
                            "the optional jumbo tier's MTU"),
    key<&mtu_config::jumbo_enabled>("jumbo_enabled", r::boolean(), "",
                                    "run the jumbo tier: only when the peer accepts jumbo frames"),
};

constexpr std::array duration_keys{
    key<&duration_set::tcp_seconds>("tcp_seconds", r::integer(1, max_seconds), "s",
                                    "TcpThroughput's test length (-t)"),
    key<&duration_set::udp_seconds>("udp_seconds", r::integer(1, max_seconds), "s",
                                    "UdpZeroLoss's test length (-t)"),
    key<&duration_set::txrx_seconds>("txrx_seconds", r::integer(1, max_seconds), "s",
                                     "procedure 002's Tx/Rx table: each test's length (-t)"),
    key<&duration_set::interval_seconds>("interval_seconds", r::integer(1, max_seconds), "s",
                                         "the report interval (-i)"),
    key<&duration_set::netperf_seconds>("netperf_seconds", r::integer(1, max_seconds), "s",
                                        "NetperfSuite: each iteration's length (netperf -l)"),
    key<&duration_set::latency_seconds>("latency_seconds", r::integer(1, max_seconds), "s",
                                        "LatencyUnderLoad: each of the idle and loaded runs"),
    key<&duration_set::rfc2544_trial_seconds>("rfc2544_trial_seconds", r::integer(1, max_seconds),
                                              "s", "Rfc2544: each search trial"),
    key<&duration_set::rfc2544_confirm_seconds>(
        "rfc2544_confirm_seconds", r::integer(1, max_seconds), "s",
        "Rfc2544: the confirmation trial (RFC 2544 asks 60)"),
    key<&duration_set::rfc2544_back_to_back_repeats>(
        "rfc2544_back_to_back_repeats", r::integer(1, 1000), "bursts",
        "Rfc2544 BackToBack: bursts searched (RFC 2544 asks 50)"),
    key<&duration_set::y1564_step_seconds>("y1564_step_seconds", r::integer(1, max_seconds), "s",
                                           "Y1564: each step of the service configuration test"),
};

constexpr std::array run_keys{
    key<&profile::duration_set_name>("durations", r::one_of(duration_set_names), "",
                                     "the duration set the run uses ($HILPERF_DURATIONS wins)"),
    key<&profile::iterations>("iterations", r::integer(1, 100), "runs",
                              "NetperfSuite: iterations per test (procedure 003 runs 10 to 20)"),
    key<&profile::quiet_cpu_pressure_percent>(
        "quiet_cpu_pressure_percent", r::positive(100.0), "%",
        "quiet bench: a failed case measures again when CPU pressure exceeded this"),
    key<&profile::quiet_other_cpu_percent>(
        "quiet_other_cpu_percent", r::positive(100000.0), "% of one core",
        "quiet bench: a failed case measures again when other processes used more"),
    key<&profile::max_attempts>("max_attempts", r::integer(1, 10), "attempts",
                                "quiet bench: the most measurements of one case"),
};

constexpr std::array netperf_keys{
    key<&netperf_config::request_size>("request_size", r::integer(1, max_message), "bytes",
                                       "TCP_RR, TCP_CRR, UDP_RR request size (netperf -r)"),
    key<&netperf_config::response_size>("response_size", r::integer(1, max_message), "bytes",
                                        "TCP_RR, TCP_CRR, UDP_RR response size"),
    key<&netperf_config::confidence_level>("confidence_level", r::integer(50, 99), "%",
                                           "the confidence level the run aims for (netperf -I)"),
    key<&netperf_config::confidence_width_percent>(
        "confidence_width_percent", r::positive(100.0), "% of the mean",
        "the confidence interval's width the run aims for"),
    key<&netperf_config::tcp_stream_mbps>("tcp_stream_mbps", r::limit(), "Mbit/s",
                                          "TCP_STREAM's least average; 0: reported, not checked"),
    key<&netperf_config::tcp_maerts_mbps>("tcp_maerts_mbps", r::limit(), "Mbit/s",
                                          "TCP_MAERTS's least average; 0: reported, not checked"),
    key<&netperf_config::udp_stream_mbps>("udp_stream_mbps", r::limit(), "Mbit/s",
                                          "UDP_STREAM's least average; 0: reported, not checked"),
    key<&netperf_config::tcp_rr_per_second>("tcp_rr_per_second", r::limit(), "transactions/s",
                                            "TCP_RR's least average; 0: reported, not checked"),
    key<&netperf_config::tcp_crr_per_second>("tcp_crr_per_second", r::limit(), "transactions/s",
                                             "TCP_CRR's least average; 0: reported, not checked"),
    key<&netperf_config::udp_rr_per_second>("udp_rr_per_second", r::limit(), "transactions/s",
                                            "UDP_RR's least average; 0: reported, not checked"),
};

constexpr std::array latency_keys{
    key<&latency_config::load_streams>(
        "load_streams", r::integer(1, 64), "streams",
        "LatencyUnderLoad: TCP streams each way saturating the link"),
    key<&latency_config::loaded_p99_ms>("loaded_p99_ms", r::positive(), "ms",
                                        "LatencyUnderLoad: most TCP_RR p99 round trip under load"),
};

// rfc2544.ip_versions: [4], [6] or [4, 6].
void read_ip_versions(const value_reader& reader, const value_rule& rule, rfc2544_config& c) {
  auto versions = read_increasing(reader, rule);
  if (versions && std::ranges::find(*versions, 5) != versions->end()) {
    reader.fail("must list 4, 6 or both; 5 is no IP version");
    return;
  }
  if (versions) c.ip_versions = std::move(*versions);
}

constexpr std::array rfc2544_keys{
    key<&rfc2544_config::frame_sizes>(
        "frame_sizes",
        r::increasing(min_frame, max_frame, "frame sizes",
                      "must list at least one frame size, e.g. [64, 128, 256, 512, 1024, 1280, "
                      "1518]"),
        "bytes", "Ethernet frame sizes; the jumbo MTU's frame follows when mtu.jumbo_enabled"),
    key<&rfc2544_config::resolution_percent>("resolution_percent", r::positive(50.0),
                                             "% of maximum",
                                             "the search stops this close to the answer"),
    key<&rfc2544_config::accepted_loss_percent>("accepted_loss_percent", r::below_100(), "%",
                                                "0: RFC 2544's zero loss; above: a partial drop "
                                                "rate"),
    key<&rfc2544_config::min_percent>("min_percent", r::positive(100.0), "% of maximum",
                                      "pass: the found rate is at least this"),
    key<&rfc2544_config::min_percent_by_frame>("min_percent_by_frame",
                                               r::per_frame(min_frame, max_frame), "% of maximum",
                                               "a frame size's own min_percent"),
    key<&rfc2544_config::line_mbps>("line_mbps", r::integer(0, 1'000'000), "Mbit/s",
                                    "the media maximum's line rate; 0: link.speed_mbps, on the "
                                    "simulated bench sim.frame_port_mbit"),
    key<&rfc2544_config::loss_step_percent>("loss_step_percent", r::positive(10.0), "% of maximum",
                                            "FrameLoss: the sweep's step down from 100 %"),
    key<&rfc2544_config::back_to_back_seconds>("back_to_back_seconds", r::integer(1, 60), "s",
                                               "BackToBack: the longest burst tried, in seconds "
                                               "of frames at the media maximum"),
    key<&rfc2544_config::back_to_back_min_percent>(
        "back_to_back_min_percent", r::positive(100.0), "% of the longest burst",
        "BackToBack pass: the repeats' average longest whole burst"),
    key<&rfc2544_config::latency_median_ms>(
        "latency_median_ms", r::positive(60'000.0), "ms",
        "Latency: most median round trip while the port carries min_percent of frames"),
    key<&rfc2544_config::directions>(
        "directions",
        r::distinct(frame_directions, "direction",
                    "must list at least one direction, e.g. [\"dut_transmits\", "
                    "\"dut_receives\"]"),
        "", "each Rfc2544 and Y1564 case runs once per direction listed"),
    key<&rfc2544_config::ip_versions>(
        "ip_versions", r::increasing(4, 6, "IP versions", "must list 4, 6 or both, e.g. [4, 6]"),
        "", "each Rfc2544 and Y1564 case runs once per IP version listed: [4], [6] or [4, 6]",
        read_ip_versions),
    key<&rfc2544_config::sender>("sender", r::one_of(rfc2544_senders), "",
                                 "the DUT's frames below the socket layer, counted by "
                                 "hilperf-peer (docs/frame-paths.md), or iperf3 UDP tests"),
};

constexpr std::array y1564_keys{
    key<&y1564_config::frame_sizes>(
        "frame_sizes",
        r::increasing(min_frame, max_frame, "frame sizes",
                      "must list at least one frame size, e.g. [512, 1518]"),
        "bytes", "a service of each frame size"),
    key<&y1564_config::steps_percent>(
        "steps_percent",
        r::increasing(1, 100, "steps",
                      "must list at least one step in % of the CIR, e.g. [25, 50, 75, 100]"),
        "% of the CIR", "the steps each service is offered in"),
    key<&y1564_config::cir_mbps>("cir_mbps", r::limit(), "Mbit/s",
                                 "the CIR in whole Ethernet frames; 0: cir_percent of what the "
                                 "line rate carries"),
    key<&y1564_config::cir_percent>("cir_percent", r::positive(100.0), "%",
                                    "the CIR as a share of the line rate, when cir_mbps is 0"),
    key<&y1564_config::flr_percent>("flr_percent", r::below_100(), "%",
                                    "each step's most frame loss ratio"),
    key<&y1564_config::ftd_ms>("ftd_ms", r::positive(60'000.0), "ms",
                               "each step's most frame transfer delay (median round trip)"),
    key<&y1564_config::fdv_ms>("fdv_ms", r::positive(60'000.0), "ms",
                               "each step's most delay variation (p99 less minimum)"),
};

constexpr std::array history_keys{
    key<&history_config::dir>("dir", r::text("a directory, relative to the profile's"), "",
                              "where hilperf-report --regressions keeps runs; empty: no history"),
    key<&history_config::url>("url", r::text("sqlite:FILE or postgresql://user@host/database"), "",
                              "the history store instead of dir (docs/history.md); relative FILEs "
                              "are from the profile's directory; never a password"),
    key<&history_config::spool>("spool", r::text("a directory, relative to the profile's"), "",
                                "where a run whose upload failed waits for the next run; empty: "
                                "$XDG_STATE_HOME/hilperf/history-spool"),
    key<&history_config::tolerance_percent>(
        "tolerance_percent", r::positive(100.0), "%",
        "worse than the baseline's median by more than this is a regression"),
    key<&history_config::baseline_runs>("baseline_runs", r::integer(1, 1000), "runs",
                                        "how many earlier runs make the baseline"),
};

// [sim] is validated in every mode (a typo is a typo), though only sim mode uses it.
constexpr std::array sim_keys{
    key<&sim_config::bench>("bench", r::name(is_bench_name, "1 to 8 characters from a-z and 0-9"),
                            "", "namespaces `hilperf-<bench>-dut` and `hilperf-<bench>-peer`"),
    key<&sim_config::peer_interface>("peer_interface", r::name(is_interface_name, interface_rule),
                                     "", "the veth end in the peer namespace"),
    key<&sim_config::shape_mbit>("shape_mbit", r::integer(0, max_rate_mbit), "Mbit/s",
                                 "tbf rate on both ends; 0 leaves the link unshaped"),
    key<&sim_config::peer_mtu>("peer_mtu", r::integer(min_mtu, max_mtu), "bytes",
                               "the peer end's MTU (1500 stands in for a PC without jumbo frames)"),
    key<&sim_config::frame_port_mbit>("frame_port_mbit", r::integer(0, max_rate_mbit), "Mbit/s",
                                      "the Ethernet port the Rfc2544 cases shape; 0: shape_mbit"),
    key<&sim_config::frame_port>("frame_port", r::one_of(frame_ports), "",
                                 "that port as tbf on each sending end, or as a token bucket in "
                                 "XDP on each receiving end (docs/xdp.md)"),
};

constexpr std::array tables{
    table<&profile::dut, dut_keys>("dut"),
    table<&profile::peer, peer_keys>("peer"),
    table<&profile::link, link_keys>("link"),
    table<&profile::limits, threshold_keys>("thresholds"),
    table<&profile::mtu, mtu_keys>("mtu"),
    table<&profile::quick, duration_keys>("durations.quick"),
    table<&profile::nightly, duration_keys>("durations.nightly"),
    table<nullptr, run_keys>("run"),
    table<&profile::netperf, netperf_keys>("netperf"),
    table<&profile::latency, latency_keys>("latency"),
    table<&profile::rfc2544, rfc2544_keys>("rfc2544"),
    table<&profile::y1564, y1564_keys>("y1564"),
    table<&profile::history, history_keys>("history"),
    table<&profile::sim, sim_keys>("sim"),
    table<&profile::console, console_keys>("console"),
    table<&profile::firmware_iperf, firmware_iperf_keys>("firmware_iperf"),
};

}  // namespace

std::span<const table_def> key_tables() { return tables; }

}  // namespace hil::profile::detail
