# ==== kube-apiserver-to-kubelet-role.sh ====
# First fragment of kube_cluster_config, run once on master 0 when every master is
# up. It defines apply_manifest for the fragments after it, waits for the API and
# lets the API server reach the kubelets (logs, exec, metrics) through RBAC.
. /etc/sysconfig/heat-params
export KUBECONFIG=/etc/kubernetes/admin.kubeconfig
export PATH="$PATH:/srv/magnum/bin"
manifests=/srv/magnum/kubernetes/manifests
install -d "$manifests"

# apply_manifest NAME: keep stdin as $manifests/NAME.yaml and apply it, retrying
# while the API is still settling
apply_manifest() {
    cat > "$manifests/$1.yaml"
    for attempt in $(seq 30); do
        kubectl apply -f "$manifests/$1.yaml" && return 0
        echo "magnum: $1 not applied yet ($attempt)"; sleep 5
    done
    echo "magnum: giving up on $1"; return 1
}

until kubectl get --raw /healthz >/dev/null 2>&1; do
    echo "magnum: waiting for the Kubernetes API"; sleep 5
done

apply_manifest kube-apiserver-to-kubelet <<'MANIFEST'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:kube-apiserver-to-kubelet
  annotations: {rbac.authorization.kubernetes.io/autoupdate: "true"}
  labels: {kubernetes.io/bootstrapping: rbac-defaults}
rules:
- apiGroups: [""]
  resources: [nodes/proxy, nodes/stats, nodes/log, nodes/spec, nodes/metrics]
  verbs: ["*"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: system:kube-apiserver}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:kube-apiserver-to-kubelet}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: kubernetes}
---
# the masters' kubelets register with node-role labels only an admin may set
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: magnum:node-admins}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:node}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: system:nodes}
MANIFEST
