// The faults of iperf3 interoperation on a veth pair in namespaces this run created
// (netns_main.cpp): a peer killed mid-test, a busy peer, garbage on the control port, a client
// vanishing mid-test, refused credentials, and what our client says of each server's failures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <array>
#include <asio.hpp>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <future>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>
#include <tuple>
#include <vector>

#include "hil/report/iperf3_json.hpp"
#include "hil/session/iperf3_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/process.hpp"
#include "hil/sys/text_file.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"
#include "interop.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
using namespace hil::test::interop;
using hil::measure::protocol;

hil::session::client_options quick_client(std::chrono::seconds t) {
  hil::session::client_options o;
  o.host = peer_address(false);
  o.port = port;
  o.spec.duration = t;
  return o;
}

class InteropFault : public ::testing::TestWithParam<side> {};

TEST_P(InteropFault, APeerKilledMidTestFailsTheClientPromptly) {
  const auto server = start_server(GetParam(), true);
  auto o = quick_client(10s);
  std::atomic<int> intervals{0};
  o.on_interval = [&](const hil::measure::interval_sample&) { ++intervals; };
  auto run = std::async(std::launch::async, [&] { return hil::session::run_client(o); });
  // Mid-test: the first interval of the 10 s test is over.
  ASSERT_TRUE(hil::test::eventually([&] { return intervals > 0; }, 5s)) << server->output();
  server->signal(SIGKILL);
  ASSERT_EQ(run.wait_for(5s), std::future_status::ready) << "the client must notice within 5 s";
  try {
    run.get();
    FAIL() << "a killed peer must fail the test";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("closed the control connection"));
  }
}

TEST_P(InteropFault, ABusyPeerIsReportedAsBusy) {
  const auto server = start_server(GetParam(), false);
  auto first = quick_client(3s);
  std::atomic<int> intervals{0};
  first.on_interval = [&](const hil::measure::interval_sample&) { ++intervals; };
  auto running = std::async(std::launch::async, [&] { return hil::session::run_client(first); });
  // The first test is running: its first interval is over (2 s of it are left).
  ASSERT_TRUE(hil::test::eventually([&] { return intervals > 0; }, 5s)) << server->output();
  try {
    hil::session::run_client(quick_client(1s));
    FAIL() << "a second client must be refused while a test runs";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("is busy running a test"));
  }
  EXPECT_NO_THROW(running.get());
}

INSTANTIATE_TEST_SUITE_P(Peer, InteropFault, ::testing::Values(side::ours, side::stock),
                         [](const auto& param_info) {
                           return std::string(param_info.param == side::ours ? "Ours" : "Stock");
                         });

TEST(OurPeer, GarbageOnTheControlPortIsRejectedAndTheNextClientServed) {
  const auto server = start_server(side::ours, false);
  {
    asio::io_context io;
    asio::ip::tcp::socket raw(io);
    raw.connect({asio::ip::make_address(peer_address(false)), port});
    const std::string garbage = "GET / HTTP/1.1\r\nHost: peer\r\nUser-Agent: curl/7.88\r\n\r\n";
    asio::write(raw, asio::buffer(garbage));
    std::array<char, 16> reply{};
    asio::error_code ec;
    raw.read_some(asio::buffer(reply), ec);  // the peer closes on us
    EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  }
  EXPECT_TRUE(server->wait_for_output("not an iperf3 client", 5s)) << server->output();
  const auto r = hil::session::run_client(quick_client(1s));
  EXPECT_TRUE(r.error.empty());
  EXPECT_GT(r.streams.at(0).receiver.bytes, 0U);
}

TEST(OurPeer, AClientVanishingMidTestLeavesThePeerReadyForTheNext) {
  const auto server = start_server(side::ours, false);
  {
    hil::sys::child_process stock({"iperf3", "--forceflush", "-c", peer_address(false), "-p",
                                   std::to_string(port), "-t", "10"});
    // Mid-test: the stock client has printed its first interval ("0.00-1.00", or "0.00-1.01"
    // when its timer fires late: the end is iperf3's clock, not a constant).
    ASSERT_TRUE(stock.wait_for_output("0.00-", 5s)) << stock.output();
    stock.signal(SIGKILL);
    stock.wait(5s);
  }
  EXPECT_TRUE(server->wait_for_output("ended early", 10s)) << server->output();
  const auto r = hil::session::run_client(quick_client(1s));
  EXPECT_TRUE(r.error.empty());
  EXPECT_GT(r.streams.at(0).receiver.bytes, 0U);
}

TEST(OurPeer, RefusedCredentialsGetIperf3sRefusalAndTheNextClientIsServed) {
  const auto server = start_server(side::ours, false, "iperf3", auth_server_flags(true));
  const auto stock_client = [&](const std::string& password) {
    auto c = std::make_unique<hil::sys::child_process>(std::vector<std::string>{
        "env", "IPERF3_PASSWORD=" + password, "iperf3", "-c", peer_address(false), "-p",
        std::to_string(port), "-t", "1", "--username", test_user, "--rsa-public-key-path",
        auth_file("public.pem")});
    const auto status = c->wait(15s);
    return std::make_pair(status, c->output());
  };
  const auto [refused, refused_output] = stock_client("not-the-password");
  EXPECT_EQ(refused, 1) << refused_output;
  EXPECT_THAT(refused_output, HasSubstr("test authorization failed"));
  EXPECT_TRUE(server->wait_for_output("not in the authorized users file", 5s)) << server->output();
  const auto [served, served_output] = stock_client(test_password);
  EXPECT_EQ(served, 0) << served_output << server->output();
  EXPECT_THAT(server->output(), HasSubstr("authenticated as \"alice\""));
  // Without credentials: refused too, never served unauthenticated.
  try {
    (void)hil::session::run_client(quick_client(1s));
    FAIL() << "a client without credentials must be refused";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("test authorization failed — the server requires iperf3 "
                                    "authentication"));
  }
}

TEST(OurClient, AStockServersRefusalNamesTheServersWordsAndWhatToCheck) {
  const auto server = start_server(side::stock, true, "iperf3", auth_server_flags(false));
  auto o = quick_client(1s);
  o.auth = test_credentials("not-the-password", true);
  try {
    (void)hil::session::run_client(o);
    FAIL() << "wrong credentials must fail";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("test authorization failed — it refused user \"alice\""));
    EXPECT_THAT(e.what(), HasSubstr("IPERF3_PASSWORD"));
  }
}

// A scripted server on loopback for one client: reads its cookie, writes reply, closes.
class cookie_then_reply {
 public:
  explicit cookie_then_reply(std::vector<std::uint8_t> reply)
      : listener_(io_, {asio::ip::make_address("127.0.0.1"), 0}),
        thread_([this, reply = std::move(reply)] {
          auto sock = listener_.accept();
          std::array<std::uint8_t, 37> cookie{};
          asio::read(sock, asio::buffer(cookie));
          if (!reply.empty()) asio::write(sock, asio::buffer(reply));
        }) {}
  ~cookie_then_reply() { thread_.join(); }
  cookie_then_reply(const cookie_then_reply&) = delete;
  cookie_then_reply& operator=(const cookie_then_reply&) = delete;

  [[nodiscard]] std::uint16_t port() const { return listener_.local_endpoint().port(); }

 private:
  asio::io_context io_;
  asio::ip::tcp::acceptor listener_;
  std::thread thread_;
};

TEST(OurClient, AServerErrorReachesTheUserInTheServersWords) {
  // A server that refuses the test with SERVER_ERROR, as a 3.21 server with
  // --server-max-duration refuses a longer -t: i_errno 37, no errno.
  const cookie_then_reply server({0xFE, 0, 0, 0, 37, 0, 0, 0, 0});
  const auto at = server.port();
  auto o = quick_client(5s);
  o.host = "127.0.0.1";
  o.port = at;
  try {
    (void)hil::session::run_client(o);
    FAIL() << "a refused test must throw";
  } catch (const std::system_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "server error from 127.0.0.1:" + std::to_string(at) +
                  ": client's requested duration exceeds the server's maximum permitted limit");
  }
}

TEST(OurClient, AServerThatNeverAnswersAsIperf3IsNamedAsSuch) {
  // What iperf 2's `iperf -s` does with an iperf3 client: reads the cookie as its own header,
  // finds it wrong and closes, before any iperf3 state.
  const cookie_then_reply server({});
  auto o = quick_client(5s);
  o.host = "127.0.0.1";
  o.port = server.port();
  o.busy_retry = 0ms;  // one attempt: a close before any state is not retried as "finishing"
  try {
    (void)hil::session::run_client(o);
    FAIL() << "a server that never answers must fail the test";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("closed the control connection"));
    EXPECT_THAT(e.what(), HasSubstr("no iperf3 state came on this connection: is the peer an "
                                    "iperf3 server? an iperf 2 server, `iperf -s`"));
  }
}

TEST(OurClient, NothingListeningSaysWhatToStart) {
  auto o = quick_client(1s);
  o.refused_retry = 200ms;
  try {
    hil::session::run_client(o);
    FAIL() << "no server: must throw";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("nothing listens on " + peer_address(false) + ":5201"));
    EXPECT_THAT(e.what(), HasSubstr("iperf3 -s -p 5201"));
  }
}

TEST(OurClient, AnUnansweredAddressTimesOutWithTheLikelyCauses) {
  auto o = quick_client(1s);
  o.host = "198.18.0.77";  // in the bench subnet, but nobody has it: ARP goes unanswered
  o.connect_timeout = 1500ms;
  const auto start = std::chrono::steady_clock::now();
  try {
    hil::session::run_client(o);
    FAIL() << "an absent host must not connect";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), ::testing::AnyOf(HasSubstr("no answer from 198.18.0.77:5201"),
                                           HasSubstr("no route to 198.18.0.77")));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "the wait must be bounded";
}

TEST(OurClient, AnOversizeDatagramWithDontFragmentFailsLoudly) {
  const auto server = start_server(side::ours, true);
  auto o = quick_client(2s);
  o.spec.proto = protocol::udp;
  o.spec.block_len = 2000;  // the DUT end's MTU is 1500: 2000 + 28 does not fit
  o.spec.dont_fragment = true;
  o.spec.bitrate_bps = 10'000'000;
  try {
    hil::session::run_client(o);
    FAIL() << "an oversize datagram with DF set must fail the test";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Message too long"));
    EXPECT_THAT(e.what(), HasSubstr("a 2000-byte datagram does not fit the path MTU"));
  }
}

TEST(OurClient, AnAbortSendsClientTerminateSoAStockServerIsFreeAtOnce) {
  const auto server = start_server(side::stock, false);
  std::atomic<bool> abort{false};
  auto o = quick_client(30s);
  o.abort = &abort;
  std::atomic<int> intervals{0};
  o.on_interval = [&](const hil::measure::interval_sample&) { ++intervals; };
  auto run = std::async(std::launch::async, [&] { return hil::session::run_client(o); });
  ASSERT_TRUE(hil::test::eventually([&] { return intervals > 0; }, 5s)) << server->output();
  abort = true;
  ASSERT_EQ(run.wait_for(5s), std::future_status::ready);
  EXPECT_THROW(run.get(), std::system_error);
  EXPECT_TRUE(server->wait_for_output("the client has terminated", 5s)) << server->output();
  const auto next = hil::session::run_client(quick_client(1s));
  EXPECT_TRUE(next.error.empty());
  EXPECT_GT(next.streams.at(0).receiver.bytes, 0U);
}

TEST(OurClient, BindToDeviceSendsThroughThatInterfaceOnly) {
  const auto server = start_server(side::ours, false);
  auto through_dut = quick_client(1s);
  through_dut.spec.bind_device = bench().dut_interface;
  EXPECT_GT(hil::session::run_client(through_dut).streams.at(0).receiver.bytes, 0U);
  auto through_lo = quick_client(1s);
  through_lo.spec.bind_device = "lo";  // as `ping -I lo`: the peer is not reachable that way
  through_lo.connect_timeout = 1s;
  through_lo.refused_retry = 0s;
  EXPECT_THROW(hil::session::run_client(through_lo), std::system_error);
}

TEST(OurPeer, APortInUseNamesTheProcessHoldingIt) {
  const auto holder = start_server(side::stock, false);
  hil::sys::child_process second({"ip", "netns", "exec", bench().peer_netns, HILPERF_PEER_BINARY,
                                  "-s", "-p", std::to_string(port)});
  EXPECT_EQ(second.wait(10s), 1);
  EXPECT_THAT(second.output(), HasSubstr("port 5201 is already in use by iperf3 (pid"));
}

}  // namespace
