// db_session: libpqxx exceptions become statuses here and nowhere else.
#include "cluster/db_session.hpp"

namespace pp::cluster {

status db_session::run(std::string_view what, const std::function<void(pqxx::connection&)>& body) {
  const auto t0 = std::chrono::steady_clock::now();
  status s;
  for (bool retried = false;; retried = true) {
    const bool reused = conn_ && conn_->is_open();
    try {
      if (!reused) conn_ = std::make_unique<pqxx::connection>(conninfo_);
      body(*conn_);
    } catch (const pqxx::broken_connection& e) {
      conn_.reset();
      // A connection that waited between calls finds out only now that the server went away (a
      // restart). The server rolled back the transaction it was in (a commit cut off midway is
      // in_doubt_error, not this) and every body is one transaction or repeatable ones, so the
      // call runs once more on a new connection instead of failing its caller.
      if (reused && !retried) continue;
      s = unavailable("database: connection lost or refused (" + std::string(e.what()) + ")");
    } catch (const pqxx::in_doubt_error& e) {
      conn_.reset();
      // The server went away while the commit was on its way: it may or may not have taken effect,
      // so neither "failed" nor "retry" is true. A submit repeated with the same --id is safe (the
      // id is unique in the database); a blind retry could make a second job.
      s = status(status_code::unknown, "database: the connection was lost while a transaction committed; whether it "
                                       "took effect is unknown (" + std::string(e.what()) + "); repeat a submit with "
                                       "the same --id, which the cluster keeps unique");
    } catch (const pqxx::sql_error& e) {
      s = internal_error("database: SQLSTATE " + e.sqlstate() + ": " + e.what());
    } catch (const std::exception& e) {
      conn_.reset();
      s = internal_error(std::string("database: ") + e.what());
    }
    break;
  }
  if (meter_) {
    meter_->calls.fetch_add(1, std::memory_order_relaxed);
    meter_->nanos.fetch_add(static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now() - t0).count()),
                            std::memory_order_relaxed);
    if (!s.ok()) meter_->errors.fetch_add(1, std::memory_order_relaxed);
  }
  return s.ok() ? s : std::move(s).with_context(what);
}

std::string text_array(const std::vector<std::string>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (const char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace pp::cluster
