// db_session: one PostgreSQL connection (libpqxx) owned by one thread, opened on first use and
// reopened after it breaks; a call that finds its idle connection broken (the server restarted
// since the last call) runs again on a new one, so a restart costs no caller an error. run() is the only place libpqxx exceptions are caught: they come out as
// statuses (unavailable for a lost connection, internal for SQL errors with their SQLSTATE), and the
// time spent is added to a db_meter, which is how the cluster reports what the database costs.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <pqxx/pqxx>

#include "core/status.hpp"

namespace pp::cluster {

// Time spent in database calls, summed over every session of a node.
struct db_meter {
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> nanos{0};
  std::atomic<uint64_t> errors{0};
};

class db_session {
 public:
  db_session(std::string conninfo, db_meter* meter) : conninfo_(std::move(conninfo)), meter_(meter) {}

  // Runs `body` on the connection (opening it first if needed). `what` names the call in errors.
  [[nodiscard]] status run(std::string_view what, const std::function<void(pqxx::connection&)>& body);

 private:
  std::string conninfo_;
  db_meter* meter_;
  std::unique_ptr<pqxx::connection> conn_;
};

// A PostgreSQL text[] literal ("{\"a\",\"b\"}") for an ANY($n::text[]) parameter.
[[nodiscard]] std::string text_array(const std::vector<std::string>& values);

}  // namespace pp::cluster
