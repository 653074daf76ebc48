# Build policy as INTERFACE targets, linked PRIVATE by every hilperf target (cmake_template style).
#   hil::warnings   — the warning set, -Werror when HIL_WARNINGS_AS_ERRORS. No -Wnull-dereference:
#                     GCC 12 at -O2 flags libstdc++ stream internals (istreambuf_iterator).
#   hil::sanitizers — ASan+UBSan or TSan per HIL_SANITIZE_*; with HIL_FUZZ, ASan+UBSan and
#                     libFuzzer's coverage instrumentation (fuzzer-no-link)
#   hil::fuzz_driver — HIL_FUZZ only: libFuzzer's main, linked by each target in fuzz/
#   HIL_STATIC      — -static for every executable (below)
add_library(hil_warnings INTERFACE)
add_library(hil::warnings ALIAS hil_warnings)
target_compile_options(hil_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Wunused -Woverloaded-virtual -Wdouble-promotion -Wformat=2
  -Wimplicit-fallthrough -Wmisleading-indentation
  $<$<CXX_COMPILER_ID:GNU>:-Wduplicated-cond -Wlogical-op>  # GCC's own; clang (fuzz) has neither
  $<$<BOOL:${HIL_WARNINGS_AS_ERRORS}>:-Werror>)

add_library(hil_sanitizers INTERFACE)
add_library(hil::sanitizers ALIAS hil_sanitizers)
if(HIL_SANITIZE_ADDRESS AND HIL_SANITIZE_THREAD)
  message(FATAL_ERROR "HIL_SANITIZE_ADDRESS and HIL_SANITIZE_THREAD cannot be combined")
endif()
if(HIL_FUZZ AND (HIL_SANITIZE_ADDRESS OR HIL_SANITIZE_THREAD))
  message(FATAL_ERROR "HIL_FUZZ brings its own sanitizers (ASan+UBSan): leave HIL_SANITIZE_* off")
endif()
if(HIL_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "HIL_FUZZ needs clang++ (libFuzzer); use the preset: cmake --preset fuzz")
endif()
if(HIL_FUZZ)
  # Every hilperf object is instrumented for coverage and the sanitizers; libFuzzer's main is
  # linked only into the targets (hil::fuzz_driver). A UBSan report aborts, so it is a finding.
  set(_hil_san -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
               -fno-omit-frame-pointer)
  add_library(hil_fuzz_driver INTERFACE)
  add_library(hil::fuzz_driver ALIAS hil_fuzz_driver)
  target_compile_options(hil_fuzz_driver INTERFACE -fsanitize=fuzzer)
  target_link_options(hil_fuzz_driver INTERFACE -fsanitize=fuzzer,address,undefined)
elseif(HIL_SANITIZE_ADDRESS)
  set(_hil_san -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
elseif(HIL_SANITIZE_THREAD)
  set(_hil_san -fsanitize=thread)
endif()
if(_hil_san)
  target_compile_options(hil_sanitizers INTERFACE ${_hil_san})
  target_link_options(hil_sanitizers INTERFACE ${_hil_san})
endif()

# HIL_STATIC: every executable linked with -static, so the binaries run on a board that has no
# matching shared libraries (Buildroot/BusyBox). Libraries Debian ships without a static archive
# are used header-only (ci/cmake/deps.cmake).
if(HIL_STATIC)
  if(_hil_san)
    message(FATAL_ERROR "HIL_STATIC cannot be combined with the sanitizers (or HIL_FUZZ)")
  endif()
  add_link_options(-static)
endif()

# hil_policy(<target>): the one call each target makes to get warnings and sanitizers.
function(hil_policy target)
  target_link_libraries(${target} PRIVATE hil::warnings hil::sanitizers)
endfunction()

# hil_unity(target): the target's sources compiled in batches of 8 (CMake's unity build) when
# HIL_UNITY_BUILD, for what ci/run-hil builds: the library's layers, the fixtures, the cases and
# the suite's tools. Most of a source's compile time is the headers it shares with its neighbours
# (nlohmann/json, asio, fmt, gtest): one batch parses them once, which took the suite's cold build
# on 2 cores from 4 min 47 s to 2 min 24 s (docs/ci.md "How long the main job takes"). Sources of
# one target therefore share one namespace scope per batch: no two may define the same name in an
# anonymous namespace or at namespace scope (a shared fact belongs in a header anyway). GCC's
# -Wsubobject-linkage, meant for headers, would flag every class of a batched source holding a
# type of its anonymous namespace. Not for the fuzz build (clang, its own targets).
function(hil_unity target)
  if(NOT HIL_UNITY_BUILD OR HIL_FUZZ)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
endfunction()
