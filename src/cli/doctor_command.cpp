// `proofpipe doctor [--config proofpipe.toml]`: whether this host can serve the configuration (the
// defaults without one), item by item with the fix (doctor/host_check.hpp). Wiring only: the
// configuration, what this build carries, the real host's probes. Exit 0 when it can serve, 1 when
// it cannot (or the configuration does not load). PP_CUDA_ARCHITECTURES comes from
// src/cli/CMakeLists.txt, as for --version.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "devices/gpu_devices.hpp"
#include "doctor/host_check.hpp"
#include "doctor/system_probes.hpp"

namespace pp::cli {
namespace {

int run_doctor(const std::string& config_path, bool quiet) {
  command_run run("doctor", quiet);
  doctor::doctor_input in;
  if (!config_path.empty()) {
    auto c = server::load_server_config(config_path);
    if (!c.ok()) return run.fail(c.error());
    in.config = std::move(*c);
  }
  in.gpu_support_built = devices::gpu_support_built();
  in.cuda_architectures = PP_CUDA_ARCHITECTURES;
  doctor::system_probes probes;
  const doctor::report r = doctor::check_host(in, probes);
  std::printf("proofpipe doctor: %s\n%s", config_path.empty() ? "the default configuration" : config_path.c_str(),
              doctor::render(r).c_str());
  return r.can_serve() ? exit_ok : exit_failure;
}

}  // namespace

void add_doctor_command(CLI::App& app, cli_state& state) {
  auto config = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("doctor", "check whether this host can serve a configuration; exit 0 when it can");
  cmd->add_option("--config", *config, "TOML configuration to check (default: the defaults, as `serve` without one)");
  cmd->callback([&state, config] { state.exit_code = run_doctor(*config, state.quiet); });
}

}  // namespace pp::cli
