# ==== rotate-kubernetes-ca-certs-master.sh ====
# A CA rotation (Magnum PATCHes the stack with a new service-account key pair):
# when the pair in the inputs differs from the one on disk, the master takes the
# new pair and fresh certificates (make-cert*.sh ran just before with the new CA)
# and restarts its control plane.
. /etc/sysconfig/heat-params
certs=/etc/kubernetes/certs
new_public="${kube_service_account_key_input:-}"
if [ -n "$new_public" ] && [ "$(printf '%b\n' "$new_public")" != "$(cat "$certs/service_account.key" 2>/dev/null)" ]; then
    echo "magnum: rotating the cluster's CA and service-account keys"
    printf '%b\n' "$new_public" > "$certs/service_account.key"
    printf '%b\n' "${kube_service_account_private_key_input}" > "$certs/service_account_private.key"
    chmod 0600 "$certs"/*.key
    sed -i "s|^KUBE_SERVICE_ACCOUNT_KEY=.*|KUBE_SERVICE_ACCOUNT_KEY=\"$new_public\"|" /etc/sysconfig/heat-params
    for unit in kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy; do
        systemctl restart "$unit"
    done
    # every service account token was signed by the old key: let them be made again
    KUBECONFIG=/etc/kubernetes/admin.kubeconfig kubectl delete secrets --all-namespaces \
        --field-selector type=kubernetes.io/service-account-token || true
fi
