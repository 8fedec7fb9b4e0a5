#!/usr/bin/env bash
# Installs real Slurm from Debian's packages when it is missing, for the
# comparison of the `slurm` policy with real Slurm (docs/slurm.md):
# slurmctld, slurmd, the client commands, munge, and slurmdbd with MariaDB
# for the fair-share cases. `apt-get update` runs once, only when
# something is missing.
set -euo pipefail
packages=(slurmctld slurmd slurm-client munge slurmdbd mariadb-server)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "== installing ${missing[*]} (Debian packages)"
export DEBIAN_FRONTEND=noninteractive
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_=sudo
$sudo_ apt-get update -qq
# The packages' own services are not started here (no systemd in the test
# machine); the scripts under scripts/slurm/ start the daemons they need.
$sudo_ apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
