# The part of ci/cmake/toolchain-<arch>.cmake common to every Debian multiarch target. The
# including file sets HIL_TARGET_TRIPLET (GNU triplet, also the multiarch directory name),
# HIL_TARGET_QEMU (the qemu-user program) and CMAKE_SYSTEM_PROCESSOR.
#
# Debian installs a foreign architecture's libraries in /usr/lib/<triplet> and its headers in
# /usr/include (arch-independent) or /usr/include/<triplet>; the cross compiler's own target files
# (crt, libc for the linker) are under /usr/<triplet>. The host's root is therefore the target's
# root as well: libraries and packages are searched only below the find roots, and the host's
# /usr/lib/x86_64-linux-gnu is ignored so nothing of the build machine's architecture is linked.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${HIL_TARGET_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${HIL_TARGET_TRIPLET}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${HIL_TARGET_TRIPLET})

set(CMAKE_FIND_ROOT_PATH /usr/${HIL_TARGET_TRIPLET} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # programs run on the build machine (clang-format, python3)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/cmake
    /usr/include/x86_64-linux-gnu)

# pkg-config (libnl) reads only the target's .pc files and the arch-independent ones.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${HIL_TARGET_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# ctest (and gtest_discover_tests) run target programs under qemu-user; -L points the dynamic
# loader at the cross libc, for builds with HIL_STATIC=OFF.
set(CMAKE_CROSSCOMPILING_EMULATOR ${HIL_TARGET_QEMU} -L /usr/${HIL_TARGET_TRIPLET})
