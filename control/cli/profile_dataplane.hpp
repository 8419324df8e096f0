#pragma once
// The data plane a profile runs on, for `linerate run` and `linerate bench`: the one
// serving the socket (its ports checked against the profile's: a `10%` written for a 40G
// port must not run on a 10G one), else one started for it with the profile's ports and
// stopped, with its socket directory, when this is destroyed.

#include <memory>
#include <string>

#include "control/client/dataplane_client.hpp"
#include "lib/profile/profile.hpp"

namespace lr::ctl {

class ProfileDataplane {
 public:
  /// Connects or starts one. Returns 0 with `out` set, else the exit code after saying
  /// why (1: the serving data plane's ports differ and `adopt_ports` is not set, or the
  /// started one exited). Throws ConnectionError when the socket named by the user does
  /// not answer.
  static int open(const profile::Profile& profile, const std::string& profile_path, const DataplaneAddress& address,
                  bool adopt_ports, std::unique_ptr<ProfileDataplane>& out);
  ~ProfileDataplane();

  DataplaneClient& client() noexcept { return *client_; }
  /// True when started for this profile (it has the profile's streams already).
  bool spawned() const noexcept { return spawned_ != nullptr; }

 private:
  class Spawned;
  // Destroyed in reverse: the client, then the data plane, then its socket directory.
  std::string temp_dir_;
  std::unique_ptr<Spawned> spawned_;
  std::unique_ptr<DataplaneClient> client_;
};

}  // namespace lr::ctl
