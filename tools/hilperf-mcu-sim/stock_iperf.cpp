#include "stock_iperf.hpp"

namespace hil::mcu_sim {

std::vector<std::string> stock_argv(const stock_plan& plan, const std::string& program) {
  std::vector<std::string> argv{program};
  const bool client = plan.role == run_role::client;
  if (client) {
    argv.insert(argv.end(), {"-c", plan.peer});
  } else {
    argv.emplace_back("-s");
  }
  argv.insert(argv.end(), {"-p", std::to_string(plan.port)});
  if (client) argv.insert(argv.end(), {"-t", std::to_string(plan.seconds)});
  argv.insert(argv.end(), {"-f", "b"});
  if (plan.protocol == run_protocol::udp) {
    argv.emplace_back("-u");
    if (client && plan.bits_per_second > 0) {
      argv.insert(argv.end(), {"-b", std::to_string(plan.bits_per_second)});
    }
  }
  if (client && plan.length > 0) argv.insert(argv.end(), {"-l", std::to_string(plan.length)});
  if (plan.interval > 0) argv.insert(argv.end(), {"-i", std::to_string(plan.interval)});
  if (plan.no_udp_fin && plan.protocol == run_protocol::udp) argv.emplace_back("--no-udp-fin");
  return argv;
}

}  // namespace hil::mcu_sim
