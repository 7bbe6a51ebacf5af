// pg_instance: a throwaway PostgreSQL server for the cluster tests: initdb into a temporary folder,
// listening only on a unix socket in that folder, stopped and removed at the end. initdb and the
// server refuse to run as root, so under root (CI) both run as the `postgres` system user through
// runuser. absent() says why there is none (no PostgreSQL binaries, no postgres user): the tests
// then skip, and the binary exits 77.
#pragma once
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <pqxx/pqxx>

namespace pp::cluster::test {

class pg_instance {
 public:
  // The PostgreSQL programs folder (Debian: /usr/lib/postgresql/<major>/bin), or empty.
  static std::filesystem::path bin_dir() {
    std::error_code ec;
    const std::filesystem::path root = "/usr/lib/postgresql";
    std::filesystem::path best;
    for (const auto& e : std::filesystem::directory_iterator(root, ec)) {
      const auto bin = e.path() / "bin";
      if (std::filesystem::exists(bin / "pg_ctl") && std::filesystem::exists(bin / "initdb") && bin > best) best = bin;
    }
    return best;
  }

  // Starts a server; on failure `why` says what was missing or what failed.
  static std::unique_ptr<pg_instance> start(std::string* why) {
    const auto bin = bin_dir();
    if (bin.empty()) {
      *why = "PostgreSQL binaries (initdb, pg_ctl) not found under /usr/lib/postgresql";
      return nullptr;
    }
    std::unique_ptr<pg_instance> p(new pg_instance());
    p->bin_ = bin;
    std::string tmpl = "/tmp/pp_pg_XXXXXX";
    if (!::mkdtemp(tmpl.data())) {
      *why = "mkdtemp failed";
      return nullptr;
    }
    p->dir_ = tmpl;
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (!pw) {
        *why = "running as root and there is no `postgres` user to run PostgreSQL as";
        return nullptr;
      }
      if (::chown(p->dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        *why = "cannot chown " + p->dir_.string() + " to postgres";
        return nullptr;
      }
      p->as_ = "runuser -u postgres -- ";
      p->user_ = "postgres";
    } else {
      p->user_ = ::getpwuid(::geteuid())->pw_name;
    }
    ::chmod(p->dir_.c_str(), 0755);
    const std::string d = p->dir_.string();
    const std::string init = p->as_ + (bin / "initdb").string() + " -D " + d + "/data -A trust -U " + p->user_ +
                             " -E UTF8 --no-sync >" + d + "/initdb.log 2>&1";
    if (std::system(init.c_str()) != 0) {
      *why = "initdb failed (see " + d + "/initdb.log)";
      p->keep_ = true;
      return nullptr;
    }
    p->opts_ = "-k " + d + " -c listen_addresses='' -p 5432 -c fsync=off -c synchronous_commit=off "
               "-c full_page_writes=off -c max_connections=200";
    if (!p->pg_ctl("start")) {
      *why = "pg_ctl start failed (see " + d + "/server.log)";
      p->keep_ = true;
      return nullptr;
    }
    p->running_ = true;
    return p;
  }

  ~pg_instance() {
    if (running_) {
      const std::string stop = as_ + (bin_ / "pg_ctl").string() + " -D " + dir_.string() + "/data -m fast -w stop >/dev/null 2>&1";
      [[maybe_unused]] const int rc = std::system(stop.c_str());
    }
    std::error_code ec;
    if (!keep_) std::filesystem::remove_all(dir_, ec);
  }
  pg_instance(const pg_instance&) = delete;
  pg_instance& operator=(const pg_instance&) = delete;

  // Stops the server (fast: every connection is cut) and starts it again, as an operator's restart
  // does; false when pg_ctl failed.
  bool restart() const { return pg_ctl("restart -m fast"); }

  // A libpq connection string for `database` over the unix socket.
  std::string conninfo(const std::string& database = "postgres") const {
    return "host=" + dir_.string() + " port=5432 user=" + user_ + " dbname=" + database;
  }
  // A new empty database; its connection string.
  std::string create_database(const std::string& name) const {
    pqxx::connection c(conninfo());
    pqxx::nontransaction n(c);
    n.exec("CREATE DATABASE " + n.quote_name(name));
    return conninfo(name);
  }

 private:
  pg_instance() = default;
  bool pg_ctl(const std::string& action) const {
    const std::string d = dir_.string();
    const std::string run = as_ + (bin_ / "pg_ctl").string() + " -D " + d + "/data -l " + d + "/server.log -w -o \"" +
                            opts_ + "\" " + action + " >>" + d + "/pg_ctl.log 2>&1";
    return std::system(run.c_str()) == 0;
  }

  std::filesystem::path bin_, dir_;
  std::string as_, user_, opts_;
  bool running_ = false;
  bool keep_ = false;
};

// One server per test binary, started on first use and stopped at exit.
inline std::string& shared_pg_error() {
  static std::string why;
  return why;
}
inline const std::unique_ptr<pg_instance>& shared_pg() {
  static const std::unique_ptr<pg_instance> pg = pg_instance::start(&shared_pg_error());
  return pg;
}

}  // namespace pp::cluster::test
