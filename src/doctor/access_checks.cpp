// access_checks: the files the daemon opens: the keys, the socket's directory and the TCP token.
// Permissions are judged for the user doctor runs as (run it as the daemon's user to see its view).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "doctor/checks.hpp"

namespace pp::doctor {
namespace {

std::string octal(uint32_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777);
  return buf;
}

}  // namespace

std::vector<key_files> check_key_files(const server::server_config& c, host_probes& probes, report& r) {
  std::vector<key_files> out;
  for (const server::key_entry& k : c.keys) {
    key_files kf{&k, 0, true};
    std::vector<std::string> paths = k.zkey.empty() ? std::vector<std::string>{k.params, k.r1cs}
                                                    : std::vector<std::string>{k.zkey};
    const std::string item = "key " + k.id;
    for (const std::string& p : paths) {
      const result<path_facts> f = probes.inspect(p);
      if (!f.ok()) {
        r.add(item, verdict::problem, p + ": " + f.error().message(),
              "put the file there, or correct the path in [[keys]]");
      } else if (f->type != path_facts::kind::regular) {
        r.add(item, verdict::problem, p + " is not a regular file", "point [[keys]] at the key file itself");
      } else if (!f->readable) {
        r.add(item, verdict::problem, p + " is not readable by this user",
              "make it readable by the daemon's user (e.g. chgrp proofpipe and chmod g+r)");
      } else {
        kf.bytes += f->size;
        continue;
      }
      kf.present = false;
    }
    if (kf.present) r.add(item, verdict::ok, bytes_text(kf.bytes) + " in " + std::to_string(paths.size()) + " file(s)");
    out.push_back(kf);
  }
  return out;
}

void check_socket_directory(const server::server_config& c, host_probes& probes, report& r) {
  const std::string item = "socket directory";
  if (c.server.socket.empty()) {
    r.add(item, verdict::ok, "no unix socket (server.socket is empty)");
    return;
  }
  const std::string dir = std::filesystem::path(c.server.socket).parent_path().string();
  const result<path_facts> f = probes.inspect(dir);
  if (!f.ok()) {
    r.add(item, verdict::warning, dir + ": " + f.error().message(),
          "the packaged unit creates /run/proofpipe at start (RuntimeDirectory); for another server.socket, "
          "create its directory, writable by the daemon's user");
    return;
  }
  if (f->type != path_facts::kind::directory) {
    r.add(item, verdict::problem, dir + " is not a directory", "set server.socket to a path in a directory");
  } else if (!f->writable) {
    r.add(item, verdict::problem, dir + " (mode " + octal(f->mode) + "): this user cannot create the socket in it",
          "make it writable by the daemon's user, or run doctor as that user");
  } else if ((f->mode & 0002) != 0 && (f->mode & 01000) == 0) {
    r.add(item, verdict::warning, dir + " (mode " + octal(f->mode) + ") is writable by every user",
          "any user can replace the socket there: use a directory of the daemon's own, e.g. /run/proofpipe");
  } else {
    r.add(item, verdict::ok, dir + " (mode " + octal(f->mode) + ")");
  }
}

void check_token_file(const server::server_config& c, host_probes& probes, report& r) {
  const std::string item = "token file";
  const std::string& path = c.server.token_file;
  if (path.empty()) {
    r.add(item, verdict::ok, "none: TCP is off (server.listen is empty)");
    return;
  }
  const result<path_facts> f = probes.inspect(path);
  if (!f.ok()) {
    r.add(item, verdict::problem, path + ": " + f.error().message(),
          "write the bearer token to it (one line), owned by the daemon's user, mode 0600");
  } else if (f->type != path_facts::kind::regular) {
    r.add(item, verdict::problem, path + " is not a regular file", "point server.token_file at the token file");
  } else if (!f->readable) {
    r.add(item, verdict::problem, path + " is not readable by this user",
          "make the daemon's user its owner (chown proofpipe " + path + ")");
  } else if ((f->mode & 0004) != 0) {
    r.add(item, verdict::problem, path + " has mode " + octal(f->mode) + ": every user of this host can read the "
          "bearer token and call the daemon over TCP", "chmod 600 " + path);
  } else if ((f->mode & 0077) != 0) {
    r.add(item, verdict::warning, path + " has mode " + octal(f->mode) + ": users besides its owner can read or "
          "change the bearer token", "chmod 600 " + path);
  } else {
    r.add(item, verdict::ok, path + " (mode " + octal(f->mode) + ")");
  }
}

}  // namespace pp::doctor
