// The far end's traffic server: in sim mode a daemon (hilperf-peer, or stock `iperf3 -s`) that
// the testbed starts inside the peer namespace and stops afterwards; in every mode a check that it
// answers, with the procedure's common causes when it does not.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hil/profile/profile.hpp"

namespace hil::bench {

// True when a TCP connection to host:port succeeds within timeout (from the calling thread's
// network namespace). Polls until the deadline: a server that is starting counts once it listens.
bool peer_answers(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);

// Throws std::system_error naming host:port and the likely causes unless it answers in time.
void require_peer(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);

// netperf's netserver for the simulated bench: $HILPERF_NETSERVER, else `netserver` on PATH.
// Throws std::system_error saying how to get one when neither has it.
std::string netserver_path();

// The command that serves as the sim peer, per profile: hilperf-peer (peer_binary), stock iperf3,
// stock iperf 2 (TCP and UDP servers), or netserver beside hilperf-peer.

std::vector<std::string> sim_peer_command(const profile::profile& p,
                                          const std::filesystem::path& peer_binary);

// Starts argv as a daemon inside network namespace netns (own session, output to log), writes its
// pid to pidfile and returns it. Throws std::system_error when it cannot start.
pid_t start_daemon(const std::string& netns, const std::vector<std::string>& argv,
                   const std::filesystem::path& log, const std::filesystem::path& pidfile);

// Stops the daemon in pidfile (SIGTERM, SIGKILL after grace) and removes the file; false when
// there was none.
bool stop_daemon(const std::filesystem::path& pidfile,
                 std::chrono::milliseconds grace = std::chrono::milliseconds(3000));

// ssh mode: the ssh command line that runs remote_command on the profile's ssh_target.
std::vector<std::string> ssh_command(const profile::profile& p, const std::string& remote_command);

// ssh mode: starts the peer server on the PC in the background (nohup, output to
// /tmp/hilperf-peer-<port>.log there), writes "ssh <pid>" to pidfile and returns the remote pid.
// Throws std::system_error quoting ssh's output when it cannot.
std::string start_ssh_peer(const profile::profile& p, const std::filesystem::path& pidfile);

// Stops whatever peer-up started per pidfile: a local daemon, or ("ssh <pid>") the remote one
// over ssh. False when pidfile names nothing.
bool stop_peer(const profile::profile& p, const std::filesystem::path& pidfile);

// RAII for a sim-mode run without CTest's fixtures: when no peer answers on the profile's
// address, starts one (sim_peer_command) in the peer namespace and stops it on destruction.
class peer_session {
 public:
  peer_session(const profile::profile& p, const std::filesystem::path& peer_binary);
  ~peer_session();
  peer_session(const peer_session&) = delete;
  peer_session& operator=(const peer_session&) = delete;

 private:
  std::filesystem::path pidfile_;  // empty when a peer was already there
  std::filesystem::path log_;      // the peer's output, removed with it
};

}  // namespace hil::bench
