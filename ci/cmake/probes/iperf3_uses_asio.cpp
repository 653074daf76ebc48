// A forbidden include on purpose: the iperf3 codecs are pure functions over bytes, so hil::iperf3
// may not use asio (lint.layers.iperf3_uses_asio checks that this file fails to compile).
#include <asio.hpp>

#include "hil/iperf3/wire.hpp"
