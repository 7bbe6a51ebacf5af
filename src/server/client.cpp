// client: channel set-up and per-call contexts.
#include "server/client.hpp"

#include <fstream>

namespace pp::server {

std::string unix_target(const std::string& socket_path) {
  return socket_path.starts_with("/") ? "unix://" + socket_path : "unix:" + socket_path;
}

result<std::string> read_token_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return not_found("token file " + path + ": cannot open");
  std::string line;
  std::getline(in, line);
  const auto b = line.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return invalid_argument("token file " + path + ": empty");
  const auto e = line.find_last_not_of(" \t\r\n");
  return line.substr(b, e - b + 1);
}

result<client> client::connect(const client_options& o) {
  client c;
  if (!o.target.empty()) {
    c.target_ = o.target;
  } else if (!o.socket.empty()) {
    c.target_ = unix_target(o.socket);
  } else {
    return invalid_argument("no daemon address: pass --socket PATH or --connect HOST:PORT");
  }
  c.token_ = o.token;
  if (c.token_.empty() && !o.token_file.empty()) {
    auto t = read_token_file(o.token_file);
    if (!t.ok()) return t.error();
    c.token_ = std::move(*t);
  }
  grpc::ChannelArguments args;
  const int max_bytes = static_cast<int>(o.max_message_mb) * 1024 * 1024;
  args.SetMaxReceiveMessageSize(max_bytes);
  args.SetMaxSendMessageSize(max_bytes);
  c.channel_ = grpc::CreateCustomChannel(c.target_, grpc::InsecureChannelCredentials(), args);
  c.stub_ = proofpipe::v1::ProofPipe::NewStub(c.channel_);
  return c;
}

std::unique_ptr<grpc::ClientContext> client::context(std::chrono::milliseconds timeout) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (!token_.empty()) ctx->AddMetadata("authorization", "Bearer " + token_);
  if (timeout.count() > 0) ctx->set_deadline(std::chrono::system_clock::now() + timeout);
  return ctx;
}

}  // namespace pp::server
