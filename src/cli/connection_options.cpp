// --socket / --connect / --token-file for the client subcommands (connection_options.hpp).
#include "cli/connection_options.hpp"

namespace pp::cli {

void add_connection_options(CLI::App& cmd, server::client_options& conn) {
  cmd.add_option("--socket", conn.socket, "the daemon's unix socket")->capture_default_str();
  cmd.add_option("--connect", conn.target, "the daemon's TCP HOST:PORT instead");
  cmd.add_option("--token-file", conn.token_file, "bearer token file (TCP)");
}

}  // namespace pp::cli
