// The options by which a client subcommand (submit, await, status, cancel) reaches the daemon.
#pragma once
#include <CLI/CLI.hpp>

#include "server/client.hpp"

namespace pp::cli {

// --socket (default shown), --connect HOST:PORT, --token-file: stored into conn.
void add_connection_options(CLI::App& cmd, server::client_options& conn);

}  // namespace pp::cli
