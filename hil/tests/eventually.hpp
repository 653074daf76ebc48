// Waiting for an observable event instead of sleeping a fixed time (docs/code-style.md rule 10):
// poll a predicate against a deadline.
#pragma once

#include <chrono>
#include <thread>

namespace hil::test {

// Polls pred every 5 ms until it holds or timeout has passed; true when it held.
template <typename Predicate>
bool eventually(Predicate pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace hil::test
