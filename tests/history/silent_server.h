#pragma once
// A TCP server on 127.0.0.1 that accepts every connection and never sends a
// byte: a database server that hangs (a stuck proxy, a wedged host). Tests
// point clients at it to check that they give up in time.

#include <atomic>
#include <thread>
#include <vector>

namespace etbench::testing {

class SilentServer {
 public:
  /// Listens on an ephemeral port; port() is 0 when that failed.
  SilentServer();
  /// Stops accepting and closes every connection.
  ~SilentServer();
  SilentServer(const SilentServer&) = delete;
  SilentServer& operator=(const SilentServer&) = delete;

  int port() const { return port_; }
  /// Connections accepted so far.
  int accepted() const { return accepted_.load(); }

 private:
  void Serve();

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::vector<int> clients_;  // held open, never read or written
  std::thread thread_;
};

}  // namespace etbench::testing
