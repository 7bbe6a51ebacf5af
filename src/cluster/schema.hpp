// schema: the cluster's tables as numbered migrations, applied in order at start-up by whichever
// node gets there first (a transaction-scoped advisory lock serialises nodes starting together).
// A migration is never edited once released; a change is a new one. docs/operations.md lists the
// tables.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include <pqxx/pqxx>

namespace pp::cluster {

struct migration {
  int version;
  std::string_view description;
  std::string_view sql;
};

[[nodiscard]] std::span<const migration> migrations();

// Applies every migration newer than the database's (pp_schema_migrations); returns the version
// the database is at. Throws libpqxx exceptions (callers run it inside db_session::run). A
// database newer than this binary is left alone and reported by the caller.
int apply_migrations(pqxx::connection& c);

}  // namespace pp::cluster
