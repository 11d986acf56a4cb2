#!/usr/bin/env bash
# Starts the image with podman and checks what a kubelet and a client would: the gateway runs as the non-root user,
# /healthz and /readyz answer, a chat completion is served through a simulated pod (itself run from the same image),
# /metrics carries the JVM's and the process's metrics, and SIGTERM stops it within the drain grace.
#   deploy/image/podman-smoke.sh [IMAGE]     (default pd-gateway:0.1.0; load it first: podman load -i TAR)
# Podman from Debian runs here as root with runc and without default ulimits (crun fails on this machine's cgroups),
# so the script passes both; elsewhere set PODMAN_RUNTIME= to keep podman's default runtime.
set -euo pipefail
image="${1:-pd-gateway:0.1.0}"
runtime="${PODMAN_RUNTIME-/usr/sbin/runc}"
gateway_port="${SMOKE_GATEWAY_PORT:-18888}"
sim_port="${SMOKE_SIM_PORT:-18001}"
work="$(mktemp -d)"
trap 'podman rm -f pd-smoke-gateway pd-smoke-sim >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
if [ -z "${CONTAINERS_CONF:-}" ]; then
  printf '[containers]\ndefault_ulimits = []\n' > "$work/containers.conf"
  export CONTAINERS_CONF="$work/containers.conf"
fi
run=(podman)
[ -n "$runtime" ] && run+=(--runtime "$runtime")

cat > "$work/pods.yaml" <<PODS
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata:
      name: standard-0
      labels: {model.aibrix.ai/name: my-model, model.aibrix.ai/port: "$sim_port", model.aibrix.ai/engine: vllm}
      annotations:
        model.aibrix.ai/config: '{"profiles":{"default":{"routingConfig":{"combined":true}}}}'
    status: {podIP: 127.0.0.1, conditions: [{type: Ready, status: "True"}]}
PODS
chmod 644 "$work/pods.yaml"

wait_for() { # url, seconds
  for _ in $(seq 1 $(( $2 * 10 ))); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "smoke: $1 did not answer within $2 s" >&2
  return 1
}

"${run[@]}" run -d --name pd-smoke-sim --network=host "$image" \
  sim --engine vllm --role combined --port "$sim_port" --model my-model >/dev/null
wait_for "http://127.0.0.1:$sim_port/health" 60

started=$(date +%s.%N)
"${run[@]}" run -d --name pd-smoke-gateway --network=host --read-only --tmpfs /tmp \
  -v "$work/pods.yaml:/etc/pd-gateway/pods.yaml:ro" -e PD_GATEWAY_DRAIN_GRACE_SECONDS=5 "$image" \
  serve --pods /etc/pd-gateway/pods.yaml --port "$gateway_port" >/dev/null
wait_for "http://127.0.0.1:$gateway_port/readyz" 60
ready=$(date +%s.%N)
echo "smoke: /readyz 200 after $(awk "BEGIN {printf \"%.1f\", $ready - $started}") s"
echo "smoke: /healthz $(curl -fsS "http://127.0.0.1:$gateway_port/healthz")"
echo "smoke: user $(podman inspect -f '{{.Config.User}}' pd-smoke-gateway), process uid $(awk '/^Uid:/ {print $2}' \
  "/proc/$(podman inspect -f '{{.State.Pid}}' pd-smoke-gateway)/status")"
answer=$(curl -fsS "http://127.0.0.1:$gateway_port/v1/chat/completions" -H 'Content-Type: application/json' \
  -d '{"model":"my-model","messages":[{"role":"user","content":"hello"}],"max_tokens":4}')
echo "smoke: completion $(echo "$answer" | head -c 120)..."
metrics=$(curl -fsS "http://127.0.0.1:$gateway_port/metrics")
for name in jvm_memory_used_bytes process_cpu_seconds_total gateway_request_model_success_total; do
  grep -q "^$name" <<<"$metrics" || { echo "smoke: /metrics lacks $name" >&2; exit 1; }
done
echo "smoke: /metrics has jvm_memory_used_bytes, process_cpu_seconds_total, gateway_request_model_success_total"
stop_started=$(date +%s.%N)
podman stop -t 30 pd-smoke-gateway >/dev/null
echo "smoke: stopped (SIGTERM, drain) in $(awk "BEGIN {printf \"%.1f\", $(date +%s.%N) - $stop_started}") s, exit code" \
  "$(podman inspect -f '{{.State.ExitCode}}' pd-smoke-gateway)"
echo "smoke: image $(podman image inspect -f '{{.Size}}' "$image" | numfmt --to=iec) uncompressed"
