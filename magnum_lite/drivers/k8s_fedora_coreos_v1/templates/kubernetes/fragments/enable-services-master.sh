# ==== enable-services-master.sh ====
# Start what the fragments before wrote, then wait for the API to answer.
. /etc/sysconfig/heat-params
systemctl daemon-reload
for unit in etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy; do
    [ -e "/etc/systemd/system/$unit.service" ] || [ -e "/usr/lib/systemd/system/$unit.service" ] || continue
    systemctl enable "$unit"
    systemctl restart --no-block "$unit"
done
api=https://127.0.0.1:$KUBE_API_PORT
[ "$TLS_DISABLED" = "True" ] && api=http://127.0.0.1:$KUBE_API_PORT
for attempt in $(seq 120); do
    curl --silent --insecure --max-time 5 "$api/healthz" | grep -q ok && break
    echo "magnum: kube-apiserver not ready yet ($attempt)"; sleep 5
done
