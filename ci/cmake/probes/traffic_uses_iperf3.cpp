// A forbidden include on purpose: the engine knows no protocol, so hil::traffic cannot see the
// iperf3 codecs (lint.layers.traffic_uses_iperf3 checks that this file fails to compile).
#include "hil/iperf3/wire.hpp"
#include "hil/traffic/flow.hpp"
