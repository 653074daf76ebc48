// A forbidden include on purpose: the codecs know nothing of the engine, so hil::iperf3 cannot see
// hil::traffic (lint.layers.iperf3_uses_traffic checks that this file fails to compile).
#include "hil/iperf3/wire.hpp"
#include "hil/traffic/flow.hpp"
