#include "iperf_args.hpp"

#include <arpa/inet.h>

#include <fmt/format.h>
#include <cstdlib>
#include <sstream>

namespace hil::mcu_sim {
namespace {

// The firmware's atoi: leading digits, the rest ignored ("50M" is 50, "x" is 0).
int atoi_of(const std::string& text) { return std::atoi(text.c_str()); }

iperf_refusal unknown_argument() {
  iperf_refusal r{iperf_usage()};
  r.lines.front() = "Unknown argument. " + r.lines.front();
  return r;
}

bool takes_value(const std::string& option) {
  for (const char* o : {"-c", "-p", "-l", "-i", "-t", "-b", "-S", "-n", "-P"}) {
    if (option == o) return true;
  }
  return false;
}

// Stores the value of option (one takes_value() accepts) in args. -S (type of service), -P (task
// priority) and -n (an amount) have no effect here.
void apply(const std::string& option, const std::string& value, iperf_args& args) {
  if (option == "-c") {
    args.peer = value;
  } else if (option == "-p") {
    args.port = static_cast<std::uint16_t>(atoi_of(value));
  } else if (option == "-l") {
    args.length = atoi_of(value);
  } else if (option == "-i") {
    args.interval = atoi_of(value);
  } else if (option == "-t") {
    args.seconds = atoi_of(value);
  } else if (option == "-b") {
    args.mbit = atoi_of(value);
  }
}

}  // namespace

std::vector<std::string> iperf_usage() {
  return {"Usage: iperf [-s|-c host] [options]",
          "  -c <server_addr> run in client mode, connecting to <server_addr>",
          "  -s               run in server mode",
          "  -u               use UDP rather than TCP",
          "  -p <port>        server port to listen on/connect to (default 5001)",
          "  -l <length>      length of buffer to read or write (default 1470 for UDP)",
          "  -i <interval>    seconds between periodic bandwidth reports (default 0: none)",
          "  -t <time>        time in seconds to transmit for (default 10 secs)",
          "  -b <bandwidth>   bandwidth to send at in Mbps (default 1 Mbps for UDP)",
          "  -S <tos>         type of service",
          "  -n <MB>          number of MB to transmit (instead of -t)",
          "  -P <priority>    traffic task priority",
          "  -a               abort the running iperf",
          "  -h               print this message"};
}

iperf_command parse_iperf(std::string_view arguments) {
  std::istringstream in{std::string(arguments)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  iperf_args args;
  bool client = false;
  bool server = false;
  bool abort = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-s") {
      server = true;
    } else if (w == "-u") {
      args.protocol = run_protocol::udp;
    } else if (w == "-a") {
      abort = true;
    } else if (w == "-h") {
      return iperf_refusal{iperf_usage()};
    } else if (takes_value(w) && i + 1 < words.size()) {
      client = client || w == "-c";
      apply(w, words[i + 1], args);
      ++i;
    } else {
      return unknown_argument();
    }
  }
  if (abort) return iperf_abort{};
  if (client == server) return iperf_refusal{{"client/server required"}};
  if (client) {
    in_addr address{};
    if (::inet_pton(AF_INET, args.peer.c_str(), &address) != 1) {
      return iperf_refusal{{"Invalid server address"}};
    }
  }
  args.role = client ? run_role::client : run_role::server;
  return args;
}

std::vector<std::string> stock_argv(const iperf_args& args, const std::string& program,
                                    double rate_factor) {
  std::vector<std::string> argv{program};
  if (args.role == run_role::client) {
    argv.insert(argv.end(), {"-c", args.peer, "-t", std::to_string(args.seconds)});
  } else {
    argv.emplace_back("-s");
  }
  argv.insert(argv.end(), {"-p", std::to_string(args.port), "-f", "b"});
  if (args.protocol == run_protocol::udp) {
    argv.emplace_back("-u");
    if (args.role == run_role::client) {
      const double bps = static_cast<double>(args.mbit) * 1e6 * rate_factor;
      argv.insert(argv.end(),
                  {"-b", fmt::format("{:.0f}", bps), "-l", std::to_string(args.length)});
    }
  }
  if (args.interval > 0) argv.insert(argv.end(), {"-i", std::to_string(args.interval)});
  return argv;
}

}  // namespace hil::mcu_sim
