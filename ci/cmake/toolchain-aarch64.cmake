# Cross-compiles hilperf for a 64-bit ARM board with Debian's cross compiler and the :arm64 -dev
# packages installed next to the host's (multiarch). `ci/cross-build aarch64` uses it:
#   cmake -S . -B build/aarch64 -G Ninja --toolchain ci/cmake/toolchain-aarch64.cmake -DHIL_STATIC=ON
# ctest runs the test binaries under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR).
set(HIL_TARGET_TRIPLET aarch64-linux-gnu)
set(HIL_TARGET_QEMU qemu-aarch64)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake)
