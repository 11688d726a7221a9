# ==== rotate-kubernetes-ca-certs-worker.sh ====
# The worker's side of a CA rotation: make-cert-client.sh has just fetched the new
# CA and client certificates; the kubelet and kube-proxy are restarted to use them.
. /etc/sysconfig/heat-params
if [ -n "${kube_service_account_key_input:-}" ]; then
    echo "magnum: new CA on $(hostname -s), restarting its services"
    systemctl restart kubelet kube-proxy
fi
