// The iperf3 server's bounds against a client that speaks the protocol but misbehaves: a raw
// client here (the codec's framing, plain sockets) against the server running in this process on
// the DUT's own addresses, with short timeouts so each probe ends in seconds.
//   - wrong-cookie connections during stream creation cannot restart its deadline
//   - a UDP stream hello from an address that is not the control connection's is ignored
//   - an untimed test (-n) whose client never sends ends after the receive timeout
//   - a client closing its control connection during stream creation frees the server at once
//   - a silent connection during stream creation holds up no stream of the test
//   - a test past its duration and guard gets iperf3's "server test duration expired"
//   - a results message nested 200,000 deep is refused, and the next client is served
//   - a results message trickled in pieces cannot stretch its deadline
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <asio.hpp>

#include <poll.h>

#include <future>
#include <mutex>
#include <string>
#include <thread>

#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"
#include "hil/session/iperf3_server.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;
using asio::ip::tcp;
using asio::ip::udp;
using clock_type = std::chrono::steady_clock;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }
std::string without_prefix(const std::string& cidr) { return hil::sys::without_prefix(cidr); }

// The server in this process, its log kept.
struct our_server {
  explicit our_server(std::chrono::seconds guard_slack = 40s) {
    hil::session::server_options o;
    o.port = 0;
    o.control_timeout = 2s;
    o.rcv_timeout = 1s;
    o.guard_slack = guard_slack;
    o.log = [this](const std::string& line) {
      const std::lock_guard lock(mutex);
      lines += line + "\n";
    };
    server = std::make_unique<hil::session::server>(o);
    serving = std::async(std::launch::async, [this] { return server->run(); });
  }
  ~our_server() {
    server->stop();
    serving.wait();
  }
  std::string log() {
    const std::lock_guard lock(mutex);
    return lines;
  }
  [[nodiscard]] tcp::endpoint at() const {
    return {asio::ip::make_address(without_prefix(bench().dut_ipv4)), server->port()};
  }
  std::mutex mutex;
  std::string lines;
  std::unique_ptr<hil::session::server> server;
  std::future<int> serving;
};

// A raw iperf3 client up to CREATE_STREAMS: cookie, parameters, the server's state.
struct raw_client {
  raw_client(const tcp::endpoint& to, const hil::measure::test_spec& spec)
      : cookie(hil::iperf3::make_cookie(7)), control(io) {
    control.connect(to);
    asio::write(control, asio::buffer(cookie));
    EXPECT_EQ(read_state(), hil::iperf3::state::param_exchange);
    asio::write(control, asio::buffer(hil::iperf3::encode_frame(hil::iperf3::encode_params(spec))));
    EXPECT_EQ(read_state(), hil::iperf3::state::create_streams);
  }
  hil::iperf3::state read_state() {
    std::array<std::int8_t, 1> b{};
    asio::read(control, asio::buffer(b));
    return static_cast<hil::iperf3::state>(b[0]);
  }
  // Seconds until the server ends the control connection (its error state and close), at most
  // `bound`; keeps calling meanwhile every 300 ms.
  double seconds_until_closed(std::chrono::seconds bound, const std::function<void()>& meanwhile) {
    control.non_blocking(true);
    const auto t0 = clock_type::now();
    std::array<std::uint8_t, 64> sink{};
    while (clock_type::now() - t0 < bound) {
      asio::error_code ec;
      (void)control.read_some(asio::buffer(sink), ec);
      if (ec && ec != asio::error::would_block) break;  // EOF or reset: the server let go
      meanwhile();
      std::this_thread::sleep_for(300ms);
    }
    return std::chrono::duration<double>(clock_type::now() - t0).count();
  }
  // Connects one TCP data stream with this test's cookie.
  std::unique_ptr<tcp::socket> connect_stream(const tcp::endpoint& to) {
    auto s = std::make_unique<tcp::socket>(io);
    s->connect(to);
    asio::write(*s, asio::buffer(cookie));
    return s;
  }
  // Connects the test's one TCP stream and reads TEST_START and TEST_RUNNING.
  std::unique_ptr<tcp::socket> start_test(const tcp::endpoint& to) {
    auto stream = connect_stream(to);
    EXPECT_EQ(read_state(), hil::iperf3::state::test_start);
    EXPECT_EQ(read_state(), hil::iperf3::state::test_running);
    return stream;
  }
  // After `duration` of test: TEST_END, then the server's EXCHANGE_RESULTS (our results are due).
  void end_test(std::chrono::seconds duration) {
    std::this_thread::sleep_for(duration);
    const std::array<std::uint8_t, 1> end{hil::iperf3::state_to_byte(hil::iperf3::state::test_end)};
    asio::write(control, asio::buffer(end));
    EXPECT_EQ(read_state(), hil::iperf3::state::exchange_results);
  }
  // Waits at most `bound` for the control connection to become readable; seconds waited.
  double seconds_until_readable(std::chrono::seconds bound) {
    pollfd p{control.native_handle(), POLLIN, 0};
    const auto t0 = clock_type::now();
    (void)::poll(&p, 1, static_cast<int>(std::chrono::milliseconds(bound).count()));
    return std::chrono::duration<double>(clock_type::now() - t0).count();
  }
  asio::io_context io;
  std::string cookie;
  tcp::socket control;
};

TEST(ServerDeadlines, WrongCookieConnectionsCannotRestartStreamCreation) {
  our_server ours;
  hil::measure::test_spec spec;
  spec.duration = 2s;
  raw_client client(ours.at(), spec);
  // Every 300 ms a data connection with another test's cookie: each used to restart the wait.
  std::vector<std::unique_ptr<tcp::socket>> intruders;
  const std::string wrong = hil::iperf3::make_cookie(8);
  const double took = client.seconds_until_closed(10s, [&] {
    auto s = std::make_unique<tcp::socket>(client.io);
    asio::error_code ec;
    s->connect(ours.at(), ec);
    if (!ec) asio::write(*s, asio::buffer(wrong), ec);
    intruders.push_back(std::move(s));
  });
  EXPECT_LT(took, 4.0) << "stream creation outlived its 2 s deadline\n" << ours.log();
  EXPECT_THAT(ours.log(), HasSubstr("did not connect its data streams")) << ours.log();
}

TEST(ServerDeadlines, AUdpHelloFromAnotherAddressIsIgnored) {
  our_server ours;
  hil::measure::test_spec spec;
  spec.proto = hil::measure::protocol::udp;
  spec.duration = 2s;
  raw_client client(ours.at(), spec);
  // The hello from the DUT's IPv6 address while the control connection came over IPv4.
  udp::socket other(client.io, udp::v6());
  other.bind({asio::ip::make_address(without_prefix(bench().dut_ipv6)), 0});
  other.non_blocking(true);
  const udp::endpoint to(asio::ip::make_address(without_prefix(bench().dut_ipv6)),
                         ours.server->port());
  other.send_to(asio::buffer(hil::iperf3::udp_connect_msg), to);
  ASSERT_TRUE(hil::test::eventually(
      [&] { return ours.log().find("ignored a UDP stream hello from") != std::string::npos; }, 3s))
      << ours.log();
  std::array<std::uint8_t, 16> reply{};
  udp::endpoint from;
  asio::error_code ec;
  (void)other.receive_from(asio::buffer(reply), from, 0, ec);
  EXPECT_EQ(ec, asio::error::would_block) << "the server answered an address that did not ask";
  EXPECT_THAT(ours.log(), HasSubstr("the test's client is " + without_prefix(bench().dut_ipv4)));
}

TEST(ServerDeadlines, AnUntimedTestWhoseClientNeverSendsEndsAfterTheReceiveTimeout) {
  our_server ours;
  hil::measure::test_spec spec;
  spec.bytes = 100 << 20;  // -n 100M, and then nothing is sent
  raw_client client(ours.at(), spec);
  const auto stream = client.start_test(ours.at());
  const double took = client.seconds_until_closed(10s, [] {});
  EXPECT_LT(took, 3.0) << "the untimed test held the server\n" << ours.log();
  EXPECT_THAT(ours.log(), HasSubstr("no data for 1 s in an untimed test")) << ours.log();
}

TEST(ServerDeadlines, ClosingTheControlConnectionDuringStreamCreationFreesTheServerAtOnce) {
  our_server ours;
  hil::measure::test_spec spec;
  spec.duration = 2s;
  const auto t0 = clock_type::now();
  {
    raw_client leaving(ours.at(), spec);
    leaving.control.close();  // parameters sent, then gone before any stream
  }
  ASSERT_TRUE(hil::test::eventually(
      [&] { return ours.log().find("closed the control connection") != std::string::npos; }, 2s))
      << ours.log();
  const double freed = std::chrono::duration<double>(clock_type::now() - t0).count();
  EXPECT_LT(freed, 1.0) << "the server waited for the streams of a client that had gone\n"
                        << ours.log();
  raw_client next(ours.at(), spec);  // served, not refused as busy (its constructor checks)
  EXPECT_THAT(ours.log(), Not(HasSubstr("busy"))) << ours.log();
}

TEST(ServerDeadlines, ASilentConnectionHoldsUpNoStreamOfTheTest) {
  our_server ours;
  hil::measure::test_spec spec;
  spec.duration = 1s;
  raw_client client(ours.at(), spec);
  tcp::socket silent(client.io);
  silent.connect(ours.at());  // connected first, and never sends a cookie
  const auto stream = client.connect_stream(ours.at());
  // With cookies read one connection after another, TEST_START waited for the silent one until
  // stream creation's 2 s deadline (and then failed).
  const double waited = client.seconds_until_readable(3s);
  EXPECT_LT(waited, 1.0) << ours.log();
  EXPECT_EQ(client.read_state(), hil::iperf3::state::test_start) << ours.log();
}

TEST(ServerDeadlines, ATestPastItsDurationAndGuardGetsIperf3sDurationExpired) {
  our_server ours(1s);
  hil::measure::test_spec spec;
  spec.duration = 1s;
  raw_client client(ours.at(), spec);
  const auto stream = client.start_test(ours.at());
  // The client never says TEST_END: after 1 s of test and 1 s of guard, iperf3 3.21's answer.
  const double waited = client.seconds_until_readable(5s);
  EXPECT_LT(waited, 3.5) << ours.log();
  ASSERT_EQ(client.read_state(), hil::iperf3::state::server_error) << ours.log();
  std::array<std::uint8_t, 8> payload{};
  asio::read(client.control, asio::buffer(payload));
  EXPECT_EQ(hil::iperf3::decode_server_error(payload).i_errno, 160)
      << hil::iperf3::describe_server_error(hil::iperf3::decode_server_error(payload));
  EXPECT_TRUE(hil::test::eventually(
      [&] { return ours.log().find("ran past its duration plus the guard") != std::string::npos; },
      2s))
      << ours.log();
}

TEST(ServerDeadlines, ADeeplyNestedResultsMessageIsRefusedAndTheNextClientIsServed) {
  our_server ours;
  hil::measure::test_spec spec;
  spec.duration = 1s;
  {
    raw_client client(ours.at(), spec);
    const auto stream = client.start_test(ours.at());
    client.end_test(spec.duration);
    // 400 kB, under the 4 MiB results limit: it crashed the peer's error text (dump() recursed).
    constexpr int depth = 200'000;
    const std::string deep =
        R"({"cpu_util_total":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
    asio::write(client.control, asio::buffer(hil::iperf3::encode_frame(deep)));
    EXPECT_LT(client.seconds_until_closed(5s, [] {}), 2.0) << ours.log();
  }
  EXPECT_TRUE(hil::test::eventually(
      [&] { return ours.log().find("nests deeper than 128 levels") != std::string::npos; }, 2s))
      << ours.log();
  raw_client next(ours.at(), spec);  // served (its constructor checks PARAM_EXCHANGE and more)
}

TEST(ServerDeadlines, AResultsMessageTrickledInPiecesCannotStretchItsDeadline) {
  our_server ours;  // control_timeout 2 s
  hil::measure::test_spec spec;
  spec.duration = 1s;
  raw_client client(ours.at(), spec);
  const auto stream = client.start_test(ours.at());
  client.end_test(spec.duration);
  // 1,000,000 bytes announced (under the 4 MiB limit), then 2,048 every 300 ms: each 4,096-byte
  // read used to get a wait of its own, so the server was held for 2.5 minutes.
  const std::array<std::uint8_t, 4> length{0, 0x0f, 0x42, 0x40};
  asio::write(client.control, asio::buffer(length));
  std::string piece(2048, ' ');
  const double took = client.seconds_until_closed(10s, [&] {
    asio::error_code ignored;
    asio::write(client.control, asio::buffer(piece), ignored);
  });
  EXPECT_LT(took, 3.5) << ours.log();
  EXPECT_TRUE(hil::test::eventually(
      [&] { return ours.log().find("did not arrive whole within 2 s") != std::string::npos; }, 2s))
      << ours.log();
}

}  // namespace
