#!/usr/bin/env bash
# nginx-gen fleet on a synthetic fact cache (docs/fleet.md, "How fast"):
#   scripts/fleet-bench.sh [HOSTS] [BIN]     (default 120 hosts, the release binary)
# Writes HOSTS cache files in ansible-core's jsonfile format (sizes from 1 vCPU / 512 MiB to
# 64 vCPUs / 256 GiB, four workloads, with and without IPv6), times `nginx-gen fleet --out`
# (every host's tree written) three times and takes the best, fails over 1000 ms; then runs
# nginx-gen once per host with the flags its facts stand for (mapped here, in Python, not by
# nginx-gen) and fails unless each host's workers, worker_connections and capacity equal the
# table's. Prints one line: "fleet: N hosts in X ms (...)". Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."

hosts=${1:-120}
bin=${2:-${CARGO_TARGET_DIR:-$PWD/target}/release/nginx-gen}
[ -x "$bin" ] || { echo "fleet-bench: FATAL: no $bin (cargo build --release -p nginx-gen)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/cache" "$hosts" <<'PY'
import json, os, sys
cache, n = sys.argv[1], int(sys.argv[2])
os.makedirs(cache)
sizes = [(1, 512), (1, 1024), (2, 2048), (2, 4096), (4, 8192), (8, 16384), (16, 32768),
         (32, 65536), (64, 262144), (3, 3900)]
workloads = ["static", "proxy", "api", "mixed"]
nginx_v = ("nginx version: nginx/1.22.1\nbuilt with OpenSSL 3.0.11 19 Sep 2023 "
           "(running with OpenSSL 3.0.15 3 Sep 2024)\n")
for i in range(n):
    vcpu, mb = sizes[i % len(sizes)]
    facts = {
        "ansible_processor_nproc": vcpu, "ansible_processor_vcpus": vcpu,
        "ansible_memtotal_mb": mb, "ansible_distribution": "Debian",
        "ansible_os_family": "Debian", "ansible_distribution_version": "12.11",
        "ansible_virtualization_role": "guest", "ansible_virtualization_type": "kvm",
        "ansible_all_ipv6_addresses": ["2001:db8::%x" % i] if i % 3 else [],
        "nginx_gen_host": {"nginx_v": nginx_v, "sites_enabled": True},
        "nginx_gen_host_inputs": {"server_names": ["h%03d.example" % i],
                             "workload": workloads[i % len(workloads)]},
    }
    with open(os.path.join(cache, "s1_h%03d" % i), "w") as f:
        json.dump({"__payload__": json.dumps(facts)}, f)
PY

best=""
for _ in 1 2 3; do
  rm -rf "$work/out"
  start=$(date +%s%N)
  "$bin" fleet --facts "$work/cache" --out "$work/out" --format json >"$work/table.json"
  ms=$((($(date +%s%N) - start) / 1000000))
  if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done

python3 - "$work" "$bin" <<'PY'
import json, os, subprocess, sys
work, binary = sys.argv[1], sys.argv[2]
table = {h["host"]: h for h in json.load(open(os.path.join(work, "table.json")))["hosts"]}
names = sorted(os.listdir(os.path.join(work, "cache")))
assert len(table) == len(names), (len(table), len(names))
for name in names:
    facts = json.loads(json.load(open(os.path.join(work, "cache", name)))["__payload__"])
    host = name.split("_", 1)[1]
    row = table[host]
    assert "error" not in row, row
    args = [binary, "--no-detect", "--vcpu", str(facts["ansible_processor_nproc"]),
            "--ram", "%dM" % facts["ansible_memtotal_mb"], "--nginx-version", "1.22.1",
            "--openssl-version", "3.0.15", "--layout", "debian",
            "--workload", facts["nginx_gen_host_inputs"]["workload"],
            "--server-name", facts["nginx_gen_host_inputs"]["server_names"][0], "--format", "json"]
    if not facts["ansible_all_ipv6_addresses"]:
        args += ["--listen", "80"]
    plan = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    value = {s["name"]: s["value"] for s in plan["settings"] if s["context"] in ("main", "events")}
    got = (int(value["worker_processes"]), int(value["worker_connections"]), plan["capacity"]["clients"])
    want = (row["workers"], row["worker_connections"], row["capacity"])
    assert got == want, f"{host}: per-host run {got}, fleet table {want}"
    assert os.path.isfile(os.path.join(work, "out", host, "etc/nginx/nginx.conf")), host
print(f"fleet-bench: {len(names)} hosts: the table equals {len(names)} per-host runs "
      "(workers, worker_connections, capacity) and every tree is written")
PY

echo "fleet: $hosts hosts in $best ms (best of 3, --out: every tree written; $(nproc) CPUs)"
if [ "$best" -ge 1000 ]; then
  echo "fleet-bench: FAILED: $best ms is not under a second" >&2
  exit 1
fi
