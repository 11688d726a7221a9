# ==== enable-services-minion.sh ====
# Start the worker's services; the node is done once its kubelet runs (the API
# shows it Ready when the network addon has reached it).
. /etc/sysconfig/heat-params
systemctl daemon-reload
for unit in kubelet kube-proxy; do
    systemctl enable "$unit"
    systemctl restart --no-block "$unit"
done
for attempt in $(seq 60); do
    systemctl is-active --quiet kubelet && break
    echo "magnum: waiting for the kubelet ($attempt)"; sleep 5
done
