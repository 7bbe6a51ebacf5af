// client: a connection to a proofpipe daemon for the CLI's submit/await/status/cancel commands and
// the tests: a unix socket (default) or HOST:PORT with a bearer token, and per-call contexts that
// carry the token and a deadline.
#pragma once
#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "core/result.hpp"
#include "server/proofpipe.grpc.pb.h"

namespace pp::server {

struct client_options {
  std::string socket = "/run/proofpipe/proofpipe.sock";  // unix socket path; used when target is empty
  std::string target;      // "HOST:PORT" for TCP
  std::string token;       // bearer token (TCP)
  std::string token_file;  // or read it from here
  uint32_t max_message_mb = 64;
};

class client {
 public:
  // Reads the token file if any; the channel connects lazily (the first call reports UNAVAILABLE
  // when nothing listens).
  [[nodiscard]] static result<client> connect(const client_options& options);

  // A fresh context per call: the authorization header, and a deadline when timeout > 0.
  [[nodiscard]] std::unique_ptr<grpc::ClientContext> context(std::chrono::milliseconds timeout = {}) const;
  proofpipe::v1::ProofPipe::Stub& stub() const { return *stub_; }
  // The channel under stub(), for its connectivity state.
  grpc::Channel& channel() const { return *channel_; }
  const std::string& target() const { return target_; }

 private:
  std::string target_;
  std::string token_;
  std::shared_ptr<grpc::Channel> channel_;
  std::shared_ptr<proofpipe::v1::ProofPipe::Stub> stub_;
};

// "unix:PATH" for a socket path (absolute or relative).
[[nodiscard]] std::string unix_target(const std::string& socket_path);
// The first line of a token file, whitespace trimmed. not_found / invalid_argument (empty).
[[nodiscard]] result<std::string> read_token_file(const std::string& path);

}  // namespace pp::server
