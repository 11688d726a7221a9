# ==== enable-auto-scaling.sh ====
# auto_scaling_enabled: the cluster autoscaler with its Magnum provider resizes the
# worker nodegroups between min_node_count and max_node_count through Magnum's API.
. /etc/sysconfig/heat-params
if [ "$AUTO_SCALING_ENABLED" = "True" ]; then
    kubectl -n kube-system create secret generic cluster-autoscaler-cloud-config \
        --from-literal=cloud-config="$(printf '[Global]\nauth-url=%s\nuser-id=%s\npassword=%s\ntrust-id=%s\nregion=%s\n' \
            "$AUTH_URL" "$TRUSTEE_USER_ID" "$TRUSTEE_PASSWORD" "$TRUST_ID" "$REGION_NAME")" \
        --dry-run=client -o yaml | kubectl apply -f -
    apply_manifest cluster-autoscaler <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: cluster-autoscaler-account, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: cluster-autoscaler}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: cluster-autoscaler-account, namespace: kube-system}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cluster-autoscaler, namespace: kube-system}
spec:
  replicas: 1
  selector: {matchLabels: {app: cluster-autoscaler}}
  template:
    metadata: {labels: {app: cluster-autoscaler}}
    spec:
      serviceAccountName: cluster-autoscaler-account
      nodeSelector: {node-role.kubernetes.io/master: ""}
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: cluster-autoscaler
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/openstackmagnum/}cluster-autoscaler:${AUTOSCALER_TAG}
        # min:max:nodegroup, the bounds Magnum was given for the default workers
        command: [./cluster-autoscaler, "--nodes=${MIN_NODE_COUNT}:${MAX_NODE_COUNT}:default-worker",
                  --cloud-provider=magnum, --cloud-config=/config/cloud-config,
                  "--cluster-name=${CLUSTER_UUID}", --scale-down-unneeded-time=10m, --v=2]
        volumeMounts: [{name: cloud-config, mountPath: /config, readOnly: true}]
      volumes: [{name: cloud-config, secret: {secretName: cluster-autoscaler-cloud-config}}]
MANIFEST
fi
