# ==== enable-cinder-csi.sh ====
# Cinder volumes for PersistentVolumeClaims (volume_driver cinder with
# cinder_csi_enabled): the CSI controller with its sidecars, and a node plugin on
# every node; the cloud.conf of write-kube-os-config.sh is its secret.
. /etc/sysconfig/heat-params
if [ "$VOLUME_DRIVER" = "cinder" ] && [ "$CINDER_CSI_ENABLED" = "True" ]; then
    sidecars="${CONTAINER_INFRA_PREFIX:-registry.k8s.io/sig-storage/}"
    plugin="${CONTAINER_INFRA_PREFIX:-docker.io/k8scloudprovider/}cinder-csi-plugin:${CINDER_CSI_PLUGIN_TAG}"
    kubectl -n kube-system create secret generic cloud-config \
        --from-file=cloud.conf=/etc/kubernetes/cloud-config-occm --dry-run=client -o yaml | kubectl apply -f -
    apply_manifest cinder-csi <<MANIFEST
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: cinder.csi.openstack.org}
spec: {attachRequired: true, podInfoOnMount: true, volumeLifecycleModes: [Persistent, Ephemeral]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: csi-cinder-controller-sa, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: csi-cinder-controller}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: csi-cinder-controller-sa, namespace: kube-system}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: csi-cinder-controllerplugin, namespace: kube-system}
spec:
  replicas: 1
  selector: {matchLabels: {app: csi-cinder-controllerplugin}}
  template:
    metadata: {labels: {app: csi-cinder-controllerplugin}}
    spec:
      serviceAccountName: csi-cinder-controller-sa
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - {name: csi-attacher, image: "${sidecars}csi-attacher:${CSI_ATTACHER_TAG}", args: ["--csi-address=/csi/csi.sock"]}
      - {name: csi-provisioner, image: "${sidecars}csi-provisioner:${CSI_PROVISIONER_TAG}", args: ["--csi-address=/csi/csi.sock"]}
      - {name: csi-snapshotter, image: "${sidecars}csi-snapshotter:${CSI_SNAPSHOTTER_TAG}", args: ["--csi-address=/csi/csi.sock"]}
      - {name: csi-resizer, image: "${sidecars}csi-resizer:${CSI_RESIZER_TAG}", args: ["--csi-address=/csi/csi.sock"]}
      - {name: liveness-probe, image: "${sidecars}livenessprobe:${CSI_LIVENESS_PROBE_TAG}", args: ["--csi-address=/csi/csi.sock"]}
      - name: cinder-csi-plugin
        image: ${plugin}
        args: [/bin/cinder-csi-plugin, "--endpoint=unix://csi/csi.sock", --cloud-config=/etc/config/cloud.conf]
        volumeMounts: [{name: cloud-config, mountPath: /etc/config, readOnly: true}]
      volumes: [{name: cloud-config, secret: {secretName: cloud-config}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: csi-cinder-nodeplugin, namespace: kube-system}
spec:
  selector: {matchLabels: {app: csi-cinder-nodeplugin}}
  template:
    metadata: {labels: {app: csi-cinder-nodeplugin}}
    spec:
      hostNetwork: true
      tolerations: [{operator: Exists}]
      containers:
      - name: node-driver-registrar
        image: ${sidecars}csi-node-driver-registrar:${CSI_NODE_DRIVER_REGISTRAR_TAG}
        args: ["--csi-address=/csi/csi.sock", "--kubelet-registration-path=/var/lib/kubelet/plugins/cinder.csi.openstack.org/csi.sock"]
      - name: cinder-csi-plugin
        image: ${plugin}
        securityContext: {privileged: true}
        args: [/bin/cinder-csi-plugin, "--endpoint=unix://csi/csi.sock", --cloud-config=/etc/config/cloud.conf]
        volumeMounts: [{name: cloud-config, mountPath: /etc/config, readOnly: true}]
      volumes: [{name: cloud-config, secret: {secretName: cloud-config}}]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: cinder, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: cinder.csi.openstack.org
allowVolumeExpansion: true
MANIFEST
fi
