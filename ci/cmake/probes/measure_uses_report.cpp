// A forbidden include on purpose: hil::measure is below hil::report and cannot see its headers
// (lint.layers.measure_uses_report checks that this file fails to compile).
#include "hil/measure/verdict.hpp"
#include "hil/report/tables.hpp"
