#!/usr/bin/env bash
# Accounting for the fair-share cases: Debian's slurmdbd on MariaDB, the
# Unix users a workload submits as, and its associations.
#
#   accounts.sh start                  MariaDB and slurmdbd (once per machine)
#   accounts.sh stop
#   accounts.sh users WORKLOAD.swf     a Unix user slu<U> per user U of field 12
#   accounts.sh associations DIR WORKLOAD.swf
#                                      the cluster of DIR/slurm.conf, an account
#                                      sla<G> per group G (field 13) and each
#                                      (account, user) pair, fairshare=1
set -euo pipefail
die() { echo "accounts.sh: $*" >&2; exit 1; }
state=/tmp/schedlab-slurm/dbd
# MariaDB runs as the mysql user, who writes its pid file where it may.
mariadb_pid=/run/mysqld/schedlab-mariadb.pid

start() {
  mkdir -p "$state" /run/mysqld
  chown mysql:mysql /run/mysqld
  if ! mysqladmin ping >/dev/null 2>&1; then
    [ -d /var/lib/mysql/mysql ] || mysql_install_db --user=mysql >/dev/null
    mariadbd --user=mysql --skip-networking=0 --bind-address=127.0.0.1 --pid-file="$mariadb_pid" \
      >"$state/mariadb.log" 2>&1 &
    for _ in $(seq 100); do mysqladmin ping >/dev/null 2>&1 && break; sleep 0.2; done
    mysqladmin ping >/dev/null 2>&1 || die "MariaDB did not start ($state/mariadb.log)"
  fi
  cat >"$state/slurmdbd.conf" <<CONF
AuthType=auth/munge
DbdHost=localhost
DbdPort=6819
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=root
StorageLoc=schedlab_slurm_acct
PidFile=$state/slurmdbd.pid
LogFile=$state/slurmdbd.log
CONF
  chmod 600 "$state/slurmdbd.conf"
  if [ ! -e "$state/slurmdbd.pid" ] || ! kill -0 "$(cat "$state/slurmdbd.pid")" 2>/dev/null; then
    # slurmdbd reads slurmdbd.conf beside the slurm.conf that SLURM_CONF names.
    SLURM_CONF=$state/slurm.conf slurmdbd
    for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/6819) 2>/dev/null && return; sleep 0.2; done
    die "slurmdbd did not start ($state/slurmdbd.log)"
  fi
}

stop() {
  local pidfile pid
  for pidfile in "$state/slurmdbd.pid" "$mariadb_pid"; do
    [ -e "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$pidfile"
  done
}

users() {
  local u
  for u in $(awk '!/^;/ && NF { print $12 }' "$1" | sort -un); do
    id "slu$u" >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin "slu$u"
  done
}

associations() {
  local dir=$1 workload=$2
  export SLURM_CONF=$dir/slurm.conf
  local cluster; cluster=$(sed -n 's/^ClusterName=//p' "$SLURM_CONF")
  sacctmgr -i add cluster "$cluster" >/dev/null
  local g u
  for g in $(awk '!/^;/ && NF { print $13 }' "$workload" | sort -un); do
    sacctmgr -i add account "sla$g" cluster="$cluster" fairshare=1 >/dev/null
  done
  awk '!/^;/ && NF { print $13, $12 }' "$workload" | sort -u | while read -r g u; do
    sacctmgr -i add user "slu$u" account="sla$g" cluster="$cluster" fairshare=1 >/dev/null
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  users) shift; users "$@" ;;
  associations) shift; associations "$@" ;;
  *) die "usage: accounts.sh start | stop | users WORKLOAD | associations DIR WORKLOAD" ;;
esac
