#!/usr/bin/env bash
# Starts and stops a real Slurm cluster on localhost from Debian's packages
# (slurmctld, slurmd, munge), for replaying a workload and comparing what
# Slurm did with Schedlab's `slurm` policy (docs/slurm.md).
#
#   cluster.sh conf DIR NODES CPUS PORT [SLURM.CONF-LINES-FILE]
#   cluster.sh start DIR NODES CPUS PORT [SLURM.CONF-LINES-FILE]
#   cluster.sh stop DIR
#
# DIR holds everything of that cluster: its slurm.conf, state, spool, logs
# and the job-completion log `jobcomp.log`; several clusters run side by
# side when each has its own DIR and PORT (SLURM_CONF=DIR/slurm.conf picks
# one for the client commands). NODES nodes n1..nN of CPUS cores each (more
# than the machine has: `SlurmdParameters=config_overrides`) are each one
# slurmd in its own UTS namespace, so that each finds its own node by its
# host name. The optional file adds lines to slurm.conf (the scheduler's and
# priority's settings of the case being replayed); a line of it replaces the
# default line with the same key. `conf` only writes DIR/slurm.conf (the
# accounting commands need it before the cluster starts); `start` writes it
# too unless it is there.
set -euo pipefail

die() { echo "cluster.sh: $*" >&2; exit 1; }

start_munge() {
  # One munged serves every cluster of this machine; it runs as the munge
  # user, which needs /run/munge to exist.
  if [ -S /run/munge/munge.socket.2 ] && munge -n </dev/null >/dev/null 2>&1; then
    return
  fi
  mkdir -p /run/munge && chown munge:munge /run/munge && chmod 0755 /run/munge
  [ -s /etc/munge/munge.key ] || { /usr/sbin/mungekey --create 2>/dev/null || create-munge-key -f; }
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
  su -s /bin/sh munge -c /usr/sbin/munged
  for _ in $(seq 50); do munge -n </dev/null >/dev/null 2>&1 && return; sleep 0.1; done
  die "munged did not start"
}

write_conf() {
  local dir=$1 nodes=$2 cpus=$3 port=$4 extra=${5:-}
  local host; host=$(hostname)
  {
    cat <<CONF
ClusterName=sl$port
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.%n.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.log
MpiDefault=none
ReturnToService=2
MinJobAge=600
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
PriorityType=priority/basic
CONF
    if [ -n "$extra" ]; then cat "$extra"; fi
  } | awk -F= '
      # A later line with the same key replaces an earlier one, so that the
      # case file overrides the defaults above; NodeName and PartitionName
      # lines are kept as they come.
      /^(NodeName|PartitionName)=/ { keep[++n] = $0; next }
      /^[A-Za-z]/ { if (!($1 in val)) order[++m] = $1; val[$1] = $0 }
      END { for (i = 1; i <= m; i++) print val[order[i]]; for (i = 1; i <= n; i++) print keep[i] }
    ' >"$dir/slurm.conf"
  # The nodes are the script's own (each slurmd needs its port), unless
  # the file gives NodeName lines; its PartitionName lines, if any, name
  # those nodes n1..nN, and without any one partition has them all.
  if ! grep -q '^NodeName=' "$dir/slurm.conf"; then
    local i lines
    lines=$(for i in $(seq "$nodes"); do
      echo "NodeName=n$i NodeHostname=n$i NodeAddr=127.0.0.1 Port=$((port + 1 + i)) CPUs=$cpus RealMemory=1000 State=UNKNOWN"
    done)
    # slurm.conf wants the nodes before the partitions that name them.
    { echo "$lines"; cat "$dir/slurm.conf"; } >"$dir/slurm.conf.new"
    grep -v '^NodeName=' "$dir/slurm.conf.new" | grep -v '^PartitionName=' >"$dir/slurm.conf"
    grep '^NodeName=' "$dir/slurm.conf.new" >>"$dir/slurm.conf"
    grep '^PartitionName=' "$dir/slurm.conf.new" >>"$dir/slurm.conf" ||
      echo "PartitionName=batch Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP" >>"$dir/slurm.conf"
    rm -f "$dir/slurm.conf.new"
  fi
}

start() {
  [ $# -ge 4 ] || die "usage: cluster.sh start DIR NODES CPUS PORT [EXTRA-CONF]"
  local dir nodes=$2 cpus=$3 port=$4 extra=${5:-}
  dir=$(realpath -m "$1")
  [ -e "$dir/slurmctld.pid" ] && die "$dir already holds a running cluster (stop it first)"
  mkdir -p "$dir/state" "$dir/spool"
  rm -f "$dir/jobcomp.log"
  [ -s "$dir/slurm.conf" ] || write_conf "$dir" "$nodes" "$cpus" "$port" "$extra"
  start_munge
  export SLURM_CONF=$dir/slurm.conf
  # -c: clear any saved state, so that a cluster always starts empty.
  slurmctld -c
  local names
  names=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' "$dir/slurm.conf" | xargs -n1 scontrol show hostnames)
  local n
  for n in $names; do
    mkdir -p "$dir/spool/$n"
    unshare --uts sh -c "hostname $n && exec slurmd"
  done
  local want; want=$(echo "$names" | wc -w)
  for _ in $(seq 300); do
    local idle
    idle=$(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle' || true)
    [ "$idle" -ge "$want" ] && { echo "cluster $dir: $want node(s) idle"; return; }
    sleep 0.2
  done
  sinfo -N >&2 || true
  die "the nodes of $dir did not become idle in 60 s (logs in $dir)"
}

stop() {
  [ $# -ge 1 ] || die "usage: cluster.sh stop DIR"
  local dir; dir=$(realpath -m "$1")
  local pidfile pid
  for pidfile in "$dir"/slurmd.*.pid "$dir/slurmctld.pid"; do
    [ -e "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

conf() {
  [ $# -ge 4 ] || die "usage: cluster.sh conf DIR NODES CPUS PORT [EXTRA-CONF]"
  local dir; dir=$(realpath -m "$1")
  mkdir -p "$dir"
  write_conf "$dir" "$2" "$3" "$4" "${5:-}"
}

case "${1:-}" in
  conf) shift; conf "$@" ;;
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) die "usage: cluster.sh start DIR NODES CPUS PORT [EXTRA-CONF] | stop DIR" ;;
esac
