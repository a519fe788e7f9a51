#!/bin/sh
# Three hosts as network namespaces on one machine, joined by a bridge in the root namespace
# (test/cluster/cluster.test.ts; docs/deploy.md "A cluster across hosts, tested"):
#   root namespace (load balancer, test process, bot receiver)  10.231.77.1  on bridge czcbr0
#   czc-db  PostgreSQL + Redis                                   10.231.77.10
#   czc-h1  chat server                                          10.231.77.11
#   czc-h2  chat server                                          10.231.77.12
# Usage: netns.sh up | down | cut HOST | restore HOST   (HOST: h1 or h2; needs root and iproute2)
set -eu
BR=czcbr0
NET=10.231.77

host_ip() { case "$1" in db) echo "$NET.10" ;; h1) echo "$NET.11" ;; h2) echo "$NET.12" ;; esac; }

down() {
  for h in db h1 h2; do
    if ip netns list | grep -qw "czc-$h"; then
      # Processes left by an aborted run (they were started in this namespace by the test).
      for pid in $(ip netns pids "czc-$h"); do kill -9 "$pid" 2>/dev/null || true; done
      ip netns del "czc-$h"
    fi
    ip link del "czc-$h-br" 2>/dev/null || true
  done
  ip link del "$BR" 2>/dev/null || true
}

up() {
  down
  ip link add "$BR" type bridge
  ip addr add "$NET.1/24" dev "$BR"
  ip link set "$BR" up
  for h in db h1 h2; do
    ip netns add "czc-$h"
    ip link add "czc-$h-br" type veth peer name "czc-$h-in"
    ip link set "czc-$h-in" netns "czc-$h"
    ip link set "czc-$h-br" master "$BR"
    ip link set "czc-$h-br" up
    ip netns exec "czc-$h" ip link set lo up
    ip netns exec "czc-$h" ip addr add "$(host_ip "$h")/24" dev "czc-$h-in"
    ip netns exec "czc-$h" ip link set "czc-$h-in" up
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  # Cutting a host off: its end of the bridge goes down; the processes inside keep running.
  cut) ip link set "czc-$2-br" down ;;
  restore) ip link set "czc-$2-br" up ;;
  *) echo "usage: $0 up|down|cut HOST|restore HOST" >&2; exit 2 ;;
esac
