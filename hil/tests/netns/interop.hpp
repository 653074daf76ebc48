// What the interop tests (interop_test.cpp: the matrix; interop_fault_test.cpp: the faults)
// share: the iperf3 port in the peer namespace, servers started there, and the credentials of
// the RSA authentication cases (hil/tests/data/auth).
//
// Port 5201 is fixed on purpose: the peer namespace belongs to this test process alone.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hil/session/iperf3_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/text_file.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace hil::test::interop {

inline constexpr std::uint16_t port = 5201;

// Which implementation runs an end: ours (hilperf, hilperf-peer) or stock iperf3.
enum class side { ours, stock };

// The file hil/tests/data/auth/<name>.
inline std::string auth_file(const std::string& name) {
  return std::string(HIL_SOURCE_DIR) + "/hil/tests/data/auth/" + name;
}
inline constexpr const char* test_user = "alice";
inline constexpr const char* test_password = "hilperf-test-secret";  // users.csv's

// The server flags that require authentication; pkcs1 also accepts pre-3.17 clients (our peer).
inline std::vector<std::string> auth_server_flags(bool pkcs1) {
  std::vector<std::string> f{"--rsa-private-key-path", auth_file("private.pem"),
                             "--authorized-users-path", auth_file("users.csv")};
  if (pkcs1) f.emplace_back("--use-pkcs1-padding");
  return f;
}

// alice's credentials with password, her token padded PKCS#1 v1.5 (pkcs1) or OAEP.
inline hil::session::client_auth test_credentials(const std::string& password, bool pkcs1) {
  return {{test_user, password},
          hil::iperf3::rsa_key::public_from_pem(
              hil::sys::read_text_file(auth_file("public.pem"), 65536), "public.pem"),
          pkcs1 ? hil::iperf3::rsa_padding::pkcs1 : hil::iperf3::rsa_padding::oaep};
}

// The bench netns_main.cpp built for this run.
inline const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

// The peer's IPv4 or IPv6 address, without its prefix length.
inline std::string peer_address(bool ipv6) {
  const std::string cidr = ipv6 ? bench().peer_ipv6 : bench().peer_ipv4;
  return hil::sys::without_prefix(cidr);
}

// Starts a server in the peer namespace and waits until it listens.
// extra: further server flags (authentication).
inline std::unique_ptr<hil::sys::child_process> start_server(
    side which, bool one_off, const std::string& stock = "iperf3",
    const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{"ip", "netns", "exec", bench().peer_netns};
  if (which == side::ours) {
    argv.insert(argv.end(), {HILPERF_PEER_BINARY, "-s", "-p", std::to_string(port)});
  } else {
    // --forceflush: iperf3 buffers its "Server listening" line when stdout is a pipe.
    argv.insert(argv.end(), {stock, "-s", "--forceflush", "-p", std::to_string(port)});
  }
  if (one_off) argv.emplace_back("-1");
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto server = std::make_unique<hil::sys::child_process>(argv);
  const char* ready = which == side::ours ? "listening on port" : "Server listening on";
  EXPECT_TRUE(server->wait_for_output(ready, std::chrono::seconds(10))) << server->output();
  return server;
}

}  // namespace hil::test::interop
