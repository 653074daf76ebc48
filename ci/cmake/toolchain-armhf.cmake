# Cross-compiles hilperf for a 32-bit ARM board (ARMv7, hard float) with Debian's cross compiler
# and the :armhf -dev packages installed next to the host's (multiarch). `ci/cross-build armhf`:
#   cmake -S . -B build/armhf -G Ninja --toolchain ci/cmake/toolchain-armhf.cmake -DHIL_STATIC=ON
# ctest runs the test binaries under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR).
set(HIL_TARGET_TRIPLET arm-linux-gnueabihf)
set(HIL_TARGET_QEMU qemu-arm)
set(CMAKE_SYSTEM_PROCESSOR arm)
include(${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake)
