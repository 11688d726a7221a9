# ==== enable-keystone-auth.sh ====
# k8s-keystone-auth as the API server's authentication and authorization webhook
# (keystone_auth_enabled): OpenStack tokens log in, and the policy Magnum sent
# (its default: the project's members may list a few kinds) says what they may do.
. /etc/sysconfig/heat-params
if [ "$KEYSTONE_AUTH_ENABLED" = "True" ]; then
    cat > /srv/magnum/kubernetes/keystone-auth-policy.json <<'POLICY'
__KEYSTONE_AUTH_DEFAULT_POLICY__
POLICY
    kubectl -n kube-system create configmap k8s-keystone-auth-policy \
        --from-file=policies=/srv/magnum/kubernetes/keystone-auth-policy.json \
        --dry-run=client -o yaml | kubectl apply -f -
    apply_manifest keystone-auth <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: k8s-keystone, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: k8s-keystone-auth}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: k8s-keystone, namespace: kube-system}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: k8s-keystone-auth, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: k8s-keystone-auth}}
  template:
    metadata: {labels: {k8s-app: k8s-keystone-auth}}
    spec:
      serviceAccountName: k8s-keystone
      hostNetwork: true
      nodeSelector: {node-role.kubernetes.io/master: ""}
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: k8s-keystone-auth
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/k8scloudprovider/}k8s-keystone-auth:${K8S_KEYSTONE_AUTH_TAG}
        args: [./bin/k8s-keystone-auth, --tls-cert-file, /etc/kubernetes/certs/server.crt,
               --tls-private-key-file, /etc/kubernetes/certs/server.key, --policy-configmap-name,
               k8s-keystone-auth-policy, --keystone-url, "${AUTH_URL}", --listen, 127.0.0.1:8443]
        volumeMounts: [{name: certs, mountPath: /etc/kubernetes/certs, readOnly: true}]
      volumes: [{name: certs, hostPath: {path: /etc/kubernetes/certs}}]
MANIFEST
fi
