// A forbidden include on purpose: hil::measure may not use asio (lint.layers.measure_uses_asio
// checks that this file fails to compile, naming the rule).
#include <asio.hpp>

#include "hil/measure/verdict.hpp"
